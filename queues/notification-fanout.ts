import { findContainer } from "../src/db/queries/catalogue";
import { NotificationFanoutParams, fanOutNotification } from "../src/services/notifications";
import { PermanentJobError, type JobHandler } from "./runner";

/**
 * `notification-fanout`: a manager's notification (`{containerId, senderId, content}` in the job's params)
 * to every subscriber of the container, in chunks of 500 (one INSERT ... SELECT each). Replays add nothing:
 * `(job_id, user_id)` is unique. Result `{container_id, recipients}`.
 */
export const notificationFanout: JobHandler = async ({ db, job, progress }) => {
  const params = NotificationFanoutParams.safeParse(job.params);
  if (!params.success) throw new PermanentJobError("malformed notification-fanout parameters");
  const { containerId } = params.data;
  if (!(await findContainer(db, containerId))) throw new PermanentJobError(`container ${containerId}c does not exist`);
  return fanOutNotification(db, job, params.data, progress);
};
