import type { User } from "../types";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";

/** The user summary of v5 sessions. The email is only shown to the user themself. */
function userSummary(user: User) {
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

/** POST and PUT /v5/sessions: `expires_at` beside the token (the earlier of idle and absolute expiry). */
export function sessionView(session: { token: string; expiresAt: number }, user: User) {
  return { token: session.token, expires_at: isoTime(session.expiresAt)!, user: userSummary(user) };
}

/** GET /v5/sessions/<token>: the user summary, with when this token expires if left unused. */
export function sessionSummary(session: { user: User; expiresAt: number }) {
  return { ...userSummary(session.user), expires_at: isoTime(session.expiresAt)! };
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
