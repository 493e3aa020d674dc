// docs/decisions.md, "One round trip per read", for the reads of a video's subtitle tracks, which live on its
// container's shard (docs/decisions.md, "Subtitles on the shards"). The other reads: test/budgets/round-trips.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createSubtitles } from "../helpers/localisation";
import { trips } from "../helpers/playback";

/** A query no cache has seen, so the read reaches D1. */
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}rt=${crypto.randomUUID()}`;

/**
 * Subtitle track reads (official applications: the application's lookup first, as on every signed request), then the
 * video, its visibility and its placement in one catalogue batch, then its container's shard (docs/decisions.md,
 * "Subtitles on the shards"); a track the KV cache holds reads no shard.
 */
describe("subtitle track reads", () => {
  let app: string;
  let video: string;
  beforeAll(async () => {
    app = (await createApplication({ official: true })).wireId;
    const c = await createContainer({ title: "Trip Tracks" });
    const v = await createVideo(c.id, { number: 1 });
    await createSubtitles(v.id, 3, { en: 3 });
    video = v.wireId;
  });

  it("are the application's lookup, the catalogue batch, then the shard; a cached track reads no shard", async () => {
    for (const [name, path] of [
      ["track list", `/v4/videos/${video}/subtitle_tracks.json`],
      ["versions", `/v4/videos/${video}/subtitle_tracks/en/versions.json`],
      ["track file", `/v4/videos/${video}/subtitle_tracks/en.srt`],
    ]) {
      const res = await api(fresh(path), { app });
      expect(res.status, name).toBe(200);
      await res.arrayBuffer();
      expect(trips(res), name).toBe(3);
    }
    // The file read above left the track's cues in KV: any format of it is then the catalogue's batch alone.
    const cached = await api(fresh(`/v4/videos/${video}/subtitle_tracks/en.vtt`), { app });
    expect(cached.status).toBe(200);
    expect(trips(cached)).toBe(2);
  });
});
