import { env } from "cloudflare:workers";
import { createContainer, createVideo } from "./catalogue";

/** A normal-state container, and a normal video in a container of its own. */
export async function followables(tag: string) {
  const container = await createContainer({ title: `${tag} container` });
  const home = await createContainer({ title: `${tag} video home`, type: "film" });
  const video = await createVideo(home.id, { title: `${tag} video`, type: "movie" });
  return { container, home, video };
}

/** `n` containers with one video each: videos whose containers all differ (the costliest page to render). */
export async function videosInOwnContainers(n: number, tag: string) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const c = await createContainer({ title: `${tag} ${i}` });
    out.push(await createVideo(c.id, { title: `${tag} video ${i}` }));
  }
  return out;
}

const RANGE = (n: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;

/**
 * `n` follows (subscriptions or markers) of a user in one INSERT ... SELECT: ids past any real container,
 * created long ago, so rows added later through the API come first in newest-first order.
 */
export async function bulkFollows(table: "subscriptions" | "markers", userId: number, n: number, base = 1_000_000_000) {
  await env.DB.prepare(
    `${RANGE(n)} INSERT INTO ${table} (user_id, resource_kind, resource_id, created_at)
     SELECT ?, 'c', ? + i, 1500000000 + i FROM n`,
  )
    .bind(userId, base)
    .run();
}

/**
 * `n` threads from `peerId` to `ownerId`, each with one message, in four INSERT ... SELECT statements.
 * Every other thread is unread for the owner. Old timestamps and ids below any later thread's.
 */
export async function bulkThreads(ownerId: number, peerId: number, n: number) {
  const { results } = await env.DB.prepare(
    `${RANGE(n)} INSERT INTO threads (created_by, created_at, updated_at) SELECT ?, 1500000000 + i, 1500000000 + i FROM n RETURNING id`,
  )
    .bind(peerId)
    .all<{ id: number }>();
  const from = Math.min(...results.map((r) => r.id));
  const to = Math.max(...results.map((r) => r.id));
  await env.DB.prepare(
    `INSERT INTO messages (thread_id, sender_id, content, created_at)
     SELECT id, ?, 'bulk message ' || id, created_at FROM threads WHERE id BETWEEN ? AND ?`,
  )
    .bind(peerId, from, to)
    .run();
  const participants = (userId: number, otherId: number, inbox: boolean) =>
    env.DB.prepare(
      `INSERT INTO thread_participants
         (thread_id, user_id, peer_id, unread, deleted, in_inbox, in_sent, last_message_id, last_message_at, created_at)
       SELECT t.id, ?, ?, ${inbox ? "t.id % 2" : "0"}, 0, ${inbox ? 1 : 0}, ${inbox ? 0 : 1}, m.id, t.created_at, t.created_at
       FROM threads t JOIN messages m ON m.thread_id = t.id WHERE t.id BETWEEN ? AND ?`,
    )
      .bind(userId, otherId, from, to)
      .run();
  await participants(ownerId, peerId, true);
  await participants(peerId, ownerId, false);
  return { from, to };
}
