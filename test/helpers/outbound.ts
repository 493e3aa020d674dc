import { env } from "cloudflare:workers";
import { afterAll, beforeAll, vi } from "vitest";

/**
 * For files whose writes wake the real webhook consumer (it runs in this isolate, after the queue message): every
 * outbound fetch answers 200 at once, and at the end no endpoint is left, so a consumer run after the file finds
 * nothing to send and never calls a real host (CI has no network; a lookup failure is noise, not a test).
 */
export function stubReceivers() {
  beforeAll(() => void vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok")));
  afterAll(async () => {
    await env.DB.prepare("DELETE FROM webhook_endpoints").run();
    // A run that claimed before the delete is still sending: it meets the stub, not the network.
    await new Promise((r) => setTimeout(r, 200));
    vi.restoreAllMocks();
  });
}
