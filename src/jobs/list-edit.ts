import { z } from "zod";
import { findList } from "../db/queries/lists";
import { afterWrite } from "../services/after-write";
import { DERIVED_LISTS, INLINE_PAYLOAD_LIMIT, MAX_LIST_ITEMS, applyListEdit, assertEditable } from "../services/lists";
import type { User } from "../types";
import { PermanentJobError, defineJob } from "./define";
import { enqueue } from "./enqueue";
import type { JobDeps } from "./types";

/** `jobs.params` of a list-edit job; `ids` is absent when the ids live in R2 under `payloadKey`. */
const ListEditParams = z.object({
  listId: z.number().int().positive(),
  ids: z.array(z.string()).max(MAX_LIST_ITEMS).optional(),
});
const ListEditPayload = z.object({ ids: z.array(z.string()).max(MAX_LIST_ITEMS) });

/**
 * `list-edit`: replaces a list's items from the ids of a PUT /v4/lists/<id>.json (inline in the job's params,
 * or in R2 under its payloadKey when large), validating each and recording the skipped ones in the result
 * `{list_id, items, skipped: [{id, reason}]}`. Idempotent: the full set is deleted and inserted in one batch.
 */
export const listEdit = defineJob({
  type: "list-edit",
  params: ListEditParams,
  payload: { key: (jobId) => `jobs/${jobId}/payload.json`, contentType: "application/json" },
  async handler({ db, env, job, params, progress }) {
    const { listId } = params;
    // A job queued for 2l/6l before they became derived would write items nothing reads.
    if (DERIVED_LISTS.has(listId)) throw new PermanentJobError(`list ${listId}l is derived from the catalogue and cannot be edited`);

    let ids = params.ids;
    if (job.payloadKey) {
      const object = await env.SUBTITLES.get(job.payloadKey);
      if (!object) throw new PermanentJobError(`payload ${job.payloadKey} is missing`);
      const payload = ListEditPayload.safeParse(await object.json().catch(() => null));
      if (!payload.success) throw new PermanentJobError(`payload ${job.payloadKey} is malformed`);
      ids = payload.data.ids;
    }
    if (!ids) throw new PermanentJobError("list-edit job without ids");

    if (!(await findList(db, listId))) throw new PermanentJobError(`list ${listId}l does not exist`);
    await progress(10);
    const result = await applyListEdit(db, listId, ids, progress);
    await afterWrite({ db, env }, { scopes: ["catalogue"] });
    return result;
  },
});

/**
 * Queues a bulk list edit (never of a derived list: 409), the ids inline or, when large, in R2. `applicationId`: the
 * application that signed the request (`signingApplicationId`), which hears how the job ends.
 */
export async function startListEdit(deps: JobDeps, user: User, listId: number, ids: string[], applicationId?: number) {
  assertEditable(listId);
  const inline = JSON.stringify(ids).length <= INLINE_PAYLOAD_LIMIT;
  return enqueue(deps, listEdit, inline ? { listId, ids } : { listId }, {
    createdBy: user.id,
    applicationId,
    payload: inline ? undefined : { body: JSON.stringify({ ids }) },
  });
}
