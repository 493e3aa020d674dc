import { findContainer } from "../db/queries/catalogue";
import { NotificationFanoutParams, assertMayNotify, fanOutNotification } from "../services/notifications";
import type { User } from "../types";
import { PermanentJobError, defineJob } from "./define";
import { enqueue } from "./enqueue";
import type { JobDeps } from "./types";

/**
 * `notification-fanout`: a manager's notification (`{containerId, senderId, content}` in the job's params)
 * to every subscriber of the container, in chunks of 500 (one INSERT ... SELECT each). Replays add nothing:
 * `(job_id, user_id)` is unique. Result `{container_id, recipients}`.
 */
export const notificationFanout = defineJob({
  type: "notification-fanout",
  params: NotificationFanoutParams,
  payload: null,
  async handler({ db, job, params, progress }) {
    if (!(await findContainer(db, params.containerId))) throw new PermanentJobError(`container ${params.containerId}c does not exist`);
    return fanOutNotification(db, job, params, progress);
  },
});

/**
 * A manager's notification to the subscribers of a container (404 / 403 from `assertMayNotify`), queued.
 * `applicationId`: the application that signed the request, which hears how the job ends.
 */
export async function startNotificationFanout(deps: JobDeps, sender: User, containerId: number, content: string, applicationId?: number) {
  const container = await assertMayNotify(deps.db, sender, containerId);
  const params = { containerId: container.id, senderId: sender.id, content };
  return enqueue(deps, notificationFanout, params, { createdBy: sender.id, applicationId });
}
