// A job acts for its creator (docs/decisions.md, "Jobs"): a subtitle import or restore checks, each time it runs, that
// its creator may still manage the video's container (staff, or a listed manager: src/services/access.ts), and fails
// for good, saying why, before it writes anything when they may not. A retry by staff runs the job for its creator
// again, never with the retrier's rights.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { containerManagers, jobs, users } from "../../src/db/schema";
import { subtitles } from "../../src/db/shard-schema";
import { api, createUser, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { deliver, importJob, makeCues, srtOf, waitForJob } from "../helpers/subtitles";

type Signed = Awaited<ReturnType<typeof signedInUser>>;

let staff: Signed;
let manager: Signed;
let container: Awaited<ReturnType<typeof createContainer>>;

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  manager = await signedInUser();
  container = await createContainer({ title: "Creator rights", managers: [manager.user.id] });
});

const refusal = (userId: number) => new RegExp(`^${userId}u no longer manages container ${container.id}c\\b`);

async function setManager(userId: number, manages: boolean) {
  if (manages) await db().insert(containerManagers).values({ containerId: container.id, userId }).onConflictDoNothing();
  else
    await db()
      .delete(containerManagers)
      .where(and(eq(containerManagers.containerId, container.id), eq(containerManagers.userId, userId)));
}

/** The video's texts in `language`, on its shard. */
async function texts(videoId: number, language = "en") {
  const rows = await (
    await videoShard(videoId)
  ).db
    .select({ text: subtitles.text })
    .from(subtitles)
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language)))
    .all();
  return rows.map((r) => r.text).sort();
}

/** POST /v4/jobs/<id>/retry.json as staff; the job then runs through the real queue consumer. */
async function staffRetry(jobId: number) {
  const res = await api(`/v4/jobs/${jobId}j/retry.json`, { method: "POST", token: staff.token });
  expect(res.status, await res.clone().text()).toBe(202);
}

describe("srt-import re-checks its creator's rights when it runs", () => {
  it("fails for good when the creator no longer manages the container, before writing anything", async () => {
    const video = await createVideo(container.id);
    const job = await importJob(manager.user.id, video.id, "en", srtOf(makeCues(2)));
    await setManager(manager.user.id, false);
    try {
      await deliver({ type: "srt-import", jobId: job.id });
      const row = (await findJob(db(), job.id))!;
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(row.error).toMatch(refusal(manager.user.id));
      expect(await texts(video.id)).toEqual([]);
    } finally {
      await setManager(manager.user.id, true);
    }
  });

  it("fails for a creator who was staff when it was queued and is no longer, and names a creator whose account is gone", async () => {
    const former = await createUser({ staff: true });
    const video = await createVideo(container.id);
    const job = await importJob(former.user.id, video.id, "en", srtOf(makeCues(1)));
    // importJob made them a listed manager too, as the route requires of a user who is not staff.
    await setManager(former.user.id, false);
    await db().update(users).set({ staff: false }).where(eq(users.id, former.user.id));
    await deliver({ type: "srt-import", jobId: job.id });
    expect((await findJob(db(), job.id))!.error).toMatch(refusal(former.user.id));

    const leaving = await createUser();
    await setManager(leaving.user.id, true);
    const orphan = await importJob(leaving.user.id, video.id, "en", srtOf(makeCues(1)));
    await db().delete(containerManagers).where(eq(containerManagers.userId, leaving.user.id));
    await db().delete(users).where(eq(users.id, leaving.user.id));
    await deliver({ type: "srt-import", jobId: orphan.id });
    expect(await findJob(db(), orphan.id)).toMatchObject({
      status: "failed",
      createdBy: null,
      error: "the importing user no longer exists",
    });
    expect(await texts(video.id)).toEqual([]);
  });

  it("a staff retry runs it for its creator: refused while they do not manage the container, done once they do again", async () => {
    const video = await createVideo(container.id);
    // A failed import whose upload is kept (its message was never sent), as a retry can run it.
    const job = await importJob(manager.user.id, video.id, "en", srtOf(makeCues(2, "retried")));
    await db().update(jobs).set({ status: "failed", error: "could not enqueue: queue unavailable" }).where(eq(jobs.id, job.id));
    await setManager(manager.user.id, false);
    try {
      await staffRetry(job.id);
      const refused = await waitForJob(`${job.id}j`, manager.token);
      expect(refused).toMatchObject({ status: "failed", attempts: 1 });
      expect(refused.error).toMatch(refusal(manager.user.id));
      expect(await texts(video.id)).toEqual([]);
    } finally {
      await setManager(manager.user.id, true);
    }
    // The failure deleted the upload, as any end does; put back, the next retry runs for the manager again.
    await env.SUBTITLES.put(job.payloadKey, srtOf(makeCues(2, "retried")));
    await staffRetry(job.id);
    expect(await waitForJob(`${job.id}j`, manager.token)).toMatchObject({ status: "succeeded", error: null });
    expect(await texts(video.id)).toEqual(["retried 1", "retried 2"]);
  });
});

describe("subtitle-restore re-checks its creator's rights when it runs", () => {
  it("fails for good when the creator no longer manages the container, also on a staff retry, and runs once they do", async () => {
    const video = await createVideo(container.id);
    for (const label of ["first", "second"]) {
      const imported = await importJob(manager.user.id, video.id, "en", srtOf(makeCues(2, label)));
      await deliver({ type: "srt-import", jobId: imported.id });
      expect((await findJob(db(), imported.id))!.status).toBe("succeeded");
    }
    const job = await insertJob(db(), {
      type: "subtitle-restore",
      params: { videoId: video.id, language: "en", number: 1 },
      createdBy: manager.user.id,
    });
    await setManager(manager.user.id, false);
    try {
      await deliver({ type: "subtitle-restore", jobId: job.id });
      const row = (await findJob(db(), job.id))!;
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(row.error).toMatch(refusal(manager.user.id));
      expect(await texts(video.id)).toEqual(["second 1", "second 2"]);

      // Staff retry it: it still acts for its creator, who still may not.
      await staffRetry(job.id);
      const again = await waitForJob(`${job.id}j`, manager.token);
      expect(again).toMatchObject({ status: "failed", attempts: 1 });
      expect(again.error).toMatch(refusal(manager.user.id));
      expect(await texts(video.id)).toEqual(["second 1", "second 2"]);
    } finally {
      await setManager(manager.user.id, true);
    }
    await staffRetry(job.id);
    expect(await waitForJob(`${job.id}j`, manager.token)).toMatchObject({ status: "succeeded", result: { restored_from: 1 } });
    expect(await texts(video.id)).toEqual(["first 1", "first 2"]);
  });
});
