import type { User } from "../types";
import { formatId } from "../lib/ids";
import { isoTime } from "./time";

/** The user summary of v5 sessions. The email is only shown to the user themself. */
export function userSummary(user: User) {
  return {
    id: formatId(user.id, "u"),
    username: user.username,
    name: user.name,
    email: user.email,
    images: user.avatarUrl ? { avatar: { url: user.avatarUrl } } : {},
    created_at: isoTime(user.createdAt),
    updated_at: isoTime(user.updatedAt),
  };
}

/** The public face of a user inside other documents (managers, comment authors). */
export function userRef(user: Pick<User, "id" | "username">, origin: string) {
  return {
    id: formatId(user.id, "u"),
    username: user.username,
    url: { api: `${origin}/v4/users/${formatId(user.id, "u")}.json` },
  };
}

/** A user as other users see them: no email. */
export function publicProfile(user: User) {
  return {
    id: formatId(user.id, "u"),
    username: user.username,
    name: user.name,
    images: user.avatarUrl ? { avatar: { url: user.avatarUrl } } : {},
    created_at: isoTime(user.createdAt),
  };
}
