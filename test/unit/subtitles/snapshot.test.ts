import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeSnapshot, encodeSnapshot, snapshotHash, type SnapshotCue } from "../../../src/domain/subtitles/snapshot";
import { sha256Hex } from "../../../src/lib/encoding";
import { trackCacheKey } from "../../../src/services/subtitle-tracks";
import { api, createApplication } from "../../helpers";
import { createContainer, createVideo } from "../../helpers/catalogue";
import { insertTrack } from "../../helpers/subtitles";

const CUES: SnapshotCue[] = [
  [0, 1000, "Hi"],
  [1500, 2500, "Two\nlines"],
  [3000, 3000, "é ✓"],
];

describe("encodeSnapshot and decodeSnapshot", () => {
  it("write compact JSON with the format number and read it back unchanged", () => {
    const body = encodeSnapshot(CUES);
    expect(body).toBe('{"v":1,"cues":[[0,1000,"Hi"],[1500,2500,"Two\\nlines"],[3000,3000,"é ✓"]]}');
    expect(decodeSnapshot(body)).toEqual(CUES);
    expect(encodeSnapshot([])).toBe('{"v":1,"cues":[]}');
    expect(decodeSnapshot('{"v":1,"cues":[]}')).toEqual([]);
  });

  it("keep text exactly: quotes, backslashes, markup, surrogate pairs, an empty text", () => {
    const cues: SnapshotCue[] = [
      [0, 10, 'He said "no" \\ <i>twice</i> &amp; 🎬'],
      [10, 20, ""],
      [10, 30, "\u2028line separator"],
    ];
    expect(decodeSnapshot(encodeSnapshot(cues))).toEqual(cues);
  });

  it("accept the members in either order and white space around them", () => {
    expect(decodeSnapshot(' { "cues" : [ [ 5 , 6 , "x" ] ] , "v" : 1 } ')).toEqual([[5, 6, "x"]]);
  });

  it.each([
    ["", /not JSON/],
    ["{", /not JSON/],
    ["[]", /not a JSON object/],
    ["null", /not a JSON object/],
    ['"text"', /not a JSON object/],
    ['{"cues":[]}', /format null is not 1/],
    ['{"v":2,"cues":[]}', /format 2 is not 1/],
    ['{"v":"1","cues":[]}', /format "1" is not 1/],
    ['{"v":1}', /cues is not an array/],
    ['{"v":1,"cues":{}}', /cues is not an array/],
    ['{"v":1,"cues":[],"hash":"x"}', /unknown member "hash"/],
    ['{"v":1,"cues":[],"__proto__":{}}', /unknown member "__proto__"/],
    ['{"v":1,"cues":[[0,1000]]}', /cue 0 is not a \[start, end, text\] triple/],
    ['{"v":1,"cues":[[0,1000,"a","b"]]}', /cue 0 is not a/],
    ['{"v":1,"cues":[{"start":0,"end":1,"text":"a"}]}', /cue 0 is not a/],
    ['{"v":1,"cues":[[0,1000,"a"],"b"]}', /cue 1 is not a/],
    ['{"v":1,"cues":[[-1,1000,"a"]]}', /cue 0 has a start that is not a whole number/],
    ['{"v":1,"cues":[[0.5,1000,"a"]]}', /cue 0 has a start that is not/],
    ['{"v":1,"cues":[["0",1000,"a"]]}', /cue 0 has a start that is not/],
    ['{"v":1,"cues":[[1e300,1e301,"a"]]}', /cue 0 has a start that is not/],
    ['{"v":1,"cues":[[0,null,"a"]]}', /cue 0 has an end that is not/],
    ['{"v":1,"cues":[[1000,999,"a"]]}', /cue 0 ends before it starts/],
    ['{"v":1,"cues":[[0,1000,7]]}', /cue 0 has text that is not a string/],
    ['{"v":1,"cues":[[0,1000,null]]}', /cue 0 has text that is not a string/],
    ['{"v":1,"cues":[[2000,3000,"a"],[1000,4000,"b"]]}', /cue 1 starts before the cue before it/],
  ])("refuse %s", (body, message) => {
    expect(() => decodeSnapshot(body)).toThrow(message);
    expect(() => decodeSnapshot(body)).toThrow(/^snapshot: /);
  });

  it("refuse to write what they would refuse to read", () => {
    expect(() => encodeSnapshot([[1000, 999, "a"]])).toThrow(/cue 0 ends before it starts/);
    expect(() =>
      encodeSnapshot([
        [2000, 3000, "a"],
        [1000, 4000, "b"],
      ]),
    ).toThrow(/cue 1 starts before/);
    expect(() => encodeSnapshot([[0, 1, 2 as unknown as string]])).toThrow(/cue 0 has text/);
  });
});

describe("snapshotHash", () => {
  it("is the first 32 hex digits of the SHA-256 of the cues as JSON", async () => {
    const hash = await snapshotHash(CUES);
    expect(hash).toBe("cd449c88963ad77319b3f7cecafc0992");
    expect(hash).toBe((await sha256Hex(JSON.stringify(CUES))).slice(0, 32));
    expect(await snapshotHash(decodeSnapshot(encodeSnapshot(CUES)))).toBe(hash);
  });

  it("changes with any time or text", async () => {
    const hash = await snapshotHash(CUES);
    expect(await snapshotHash([[0, 1001, "Hi"], ...CUES.slice(1)])).not.toBe(hash);
    expect(await snapshotHash([[0, 1000, "Hi!"], ...CUES.slice(1)])).not.toBe(hash);
    expect(await snapshotHash(CUES.slice(1))).not.toBe(hash);
  });

  it("equals the hash of the track cache, which is the track's ETag", async () => {
    const official = (await createApplication({ official: true })).wireId;
    const video = await createVideo((await createContainer({ title: "Snapshot hash" })).id);
    // On the container's shard, where the track is read (docs/decisions.md, "Subtitles on the shards").
    await insertTrack(video.id, "en", [
      [4000, 5000, "Last"],
      [0, 1000, "Hi"],
      [1500, 2500, "Two\nlines"],
    ]);
    const res = await api(`/v4/videos/${video.wireId}/subtitles/en.srt?app=${official}`);
    expect(res.status).toBe(200);
    const cached = await env.CACHE.get<{ hash: string; cues: SnapshotCue[] }>(trackCacheKey(video.id, "en"), "json");
    const cues: SnapshotCue[] = [
      [0, 1000, "Hi"],
      [1500, 2500, "Two\nlines"],
      [4000, 5000, "Last"],
    ];
    expect(cached?.cues).toEqual(cues);
    expect(cached?.hash).toBe(await snapshotHash(cues));
    expect(res.headers.get("etag")).toBe(`"${await snapshotHash(cues)}.srt"`);
  });
});
