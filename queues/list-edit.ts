import { findList } from "../src/db/queries/lists";
import { DERIVED_LISTS, ListEditParams, ListEditPayload, applyListEdit } from "../src/services/lists";
import { PermanentJobError, type JobHandler } from "./runner";

/**
 * `list-edit`: replaces a list's items from the ids of a PUT /v4/lists/<id>.json (inline in the job's params,
 * or in R2 under its payloadKey when large), validating each and recording the skipped ones in the result
 * `{list_id, items, skipped: [{id, reason}]}`. Idempotent: the full set is deleted and inserted in one batch.
 */
export const listEdit: JobHandler = async ({ db, env, job, progress }) => {
  const params = ListEditParams.safeParse(job.params);
  if (!params.success) throw new PermanentJobError("malformed list-edit parameters");
  const { listId } = params.data;
  // A job queued for 2l/6l before they became derived would write items nothing reads.
  if (DERIVED_LISTS.has(listId)) throw new PermanentJobError(`list ${listId}l is derived from the catalogue and cannot be edited`);

  let ids = params.data.ids;
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
  return applyListEdit(db, listId, ids, progress);
};
