import type { DB } from "../db/client";
import { isContainerManager } from "../db/queries/catalogue";
import type { User } from "../types";

/** Staff see and edit everything; a container's managers see and edit their own containers. */
export async function canManageContainer(db: DB, user: User | undefined, containerId: number) {
  if (!user) return false;
  if (user.staff) return true;
  return isContainerManager(db, containerId, user.id);
}
