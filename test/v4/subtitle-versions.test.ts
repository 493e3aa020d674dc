import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { writeSrt } from "../../src/domain/subtitles/srt";
import { api, createApplication, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { waitForJob } from "../helpers/subtitles";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type Version = {
  number: number;
  cause: string;
  cues: number;
  completion: number;
  hash: string;
  author: string | null;
  restored_from: number | null;
};

let official: string;
let partner: string;
let manager: Signed;
let other: Signed;
let video: Awaited<ReturnType<typeof createVideo>>;

const V1 = [
  { startMs: 1000, endMs: 2500, text: "Hello there" },
  { startMs: 3000, endMs: 4000, text: "The red fox ran" },
  { startMs: 5000, endMs: 7000, text: "Goodbye" },
];

const base = () => `/v4/videos/${video.wireId}/subtitle_tracks`;
const q = (token = manager.token, app = official) => `app=${app}&token=${token}`;

async function importSrt(cues: typeof V1, language = "en") {
  const res = await api(`/v4/videos/${video.wireId}/subtitles/import_srt.json?language=${language}&${q()}`, {
    method: "POST",
    body: writeSrt(cues),
    headers: { "content-type": "application/x-subrip" },
  });
  expect(res.status).toBe(202);
  const job = await waitForJob(((await res.json()) as { job: { id: string } }).job.id, manager.token);
  expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
  await waitForJob((job.result as { completion_job: string }).completion_job, manager.token);
  return job.result as { version: number | null };
}

async function versions(language = "en") {
  const res = await api(`${base()}/${language}/versions.json?${q()}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { response: Version[] }).response;
}

async function currentSrt(language = "en") {
  const res = await api(`${base()}/${language}.srt?${q()}`);
  return res.status === 200 ? await res.text() : res.status;
}

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  partner = (await createApplication()).wireId;
  manager = await signedInUser();
  other = await signedInUser();
  const c = await createContainer({ title: "Versions", managers: [manager.user.id] });
  video = await createVideo(c.id, { number: 1 });
});

describe("subtitle versions", () => {
  it("makes a version per change, lists, reads, compares and restores them", async () => {
    expect((await importSrt(V1)).version).toBe(1);
    // The same content again makes no version.
    expect((await importSrt(V1)).version).toBe(1);
    expect((await versions()).map((v) => v.number)).toEqual([1]);

    const edit = await api(`${base()}/en/cues/3000.json?${q()}`, { method: "PUT", body: JSON.stringify({ text: "The blue cat ran" }) });
    expect(edit.status).toBe(200);
    const edited = (await edit.json()) as { changed: boolean; version: Version };
    expect(edited).toMatchObject({ changed: true, version: { number: 2, cause: "edit", cues: 3, author: `${manager.user.id}u` } });

    const cmp = await api(`${base()}/en/versions/1/compare/2.json?${q()}`);
    expect(cmp.status).toBe(200);
    const comparison = (await cmp.json()) as {
      counts: Record<string, number>;
      changed: Array<{ edits: Array<{ op: string; text: string }> }>;
    };
    expect(comparison.counts).toEqual({ added: 0, removed: 0, retimed: 0, changed: 1, unchanged: 2 });
    expect(comparison.changed[0].edits).toEqual([
      { op: "equal", text: "The " },
      { op: "delete", text: "red fox" },
      { op: "insert", text: "blue cat" },
      { op: "equal", text: " ran" },
    ]);

    const v1 = await api(`${base()}/en/versions/1.srt?${q()}`);
    expect(v1.status).toBe(200);
    expect(await v1.text()).toContain("The red fox ran");
    expect(v1.headers.get("etag")).toMatch(/^"[0-9a-f]{32}\.srt"$/);

    const restore = await api(`${base()}/en/versions/1/restore.json?${q()}`, { method: "POST" });
    expect(restore.status).toBe(201);
    expect(((await restore.json()) as { version: Version }).version).toMatchObject({ number: 3, cause: "restore", restored_from: 1 });
    expect(await currentSrt()).toContain("The red fox ran");

    const del = await api(`${base()}/en.json?${q()}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(((await del.json()) as { version: Version }).version).toMatchObject({ number: 4, cause: "deletion", cues: 0 });
    expect(await currentSrt()).toBe(404);

    const back = await api(`${base()}/en/versions/2/restore.json?${q()}`, { method: "POST" });
    expect(back.status).toBe(201);
    expect(await currentSrt()).toContain("The blue cat ran");

    const all = await versions();
    expect(all.map((v) => [v.number, v.cause])).toEqual([
      [5, "restore"],
      [4, "deletion"],
      [3, "restore"],
      [2, "edit"],
      [1, "import"],
    ]);
    expect(all[0].hash).toBe(all[3].hash);
    expect(all[2].hash).toBe(all[4].hash);
  });

  it("refuses other users, unofficial applications and unknown versions", async () => {
    const foreign = await api(`${base()}/en/versions/1/restore.json?${q(other.token)}`, { method: "POST" });
    expect(foreign.status).toBe(403);
    const unofficial = await api(`${base()}/en/versions.json?${q(manager.token, partner)}`);
    expect(unofficial.status).toBe(403);
    const unknown = await api(`${base()}/en/versions/99.srt?${q()}`);
    expect(unknown.status).toBe(404);
    const badNumber = await api(`${base()}/en/versions/x/compare/1.json?${q()}`);
    expect(badNumber.status).toBe(400);
    expect((await errorBody(badNumber)).details?.map((d) => d.field)).toEqual(["number"]);
    const otherTrack = await api(`${base()}/fr/versions/1.srt?${q()}`);
    expect(otherTrack.status).toBe(404);
    expect(env.SUBTITLES).toBeDefined();
  });
});
