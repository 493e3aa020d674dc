import { log } from "../lib/log";

/**
 * A job's upload is kept in R2 only while the job may still read it: deleted when the job ends, succeeded or failed
 * (docs/api.md, "Subtitle files": retention). A delivery after the end reads nothing (the runner acks a finished job
 * untouched). Never throws: a payload left behind costs storage, not correctness.
 */
export async function discardPayload(env: Env, payloadKey: string | null | undefined) {
  if (!payloadKey) return;
  try {
    await env.SUBTITLES.delete(payloadKey);
  } catch (err) {
    log("error", { event: "job", error: `could not delete payload ${payloadKey}: ${String(err)}` });
  }
}
