import { SubtitleError } from "../../../src/domain/subtitles/cue";

/** The SubtitleError `run` throws; any other outcome fails the test. */
export function refused(run: () => unknown): SubtitleError {
  try {
    run();
  } catch (err) {
    if (err instanceof SubtitleError) return err;
    throw err;
  }
  throw new Error("expected a SubtitleError");
}
