// `npm run admin -- shards <list|add|accept|move>`: the shard databases as an operator runs them (docs/operations.md,
// "Shards"; docs/decisions.md, "Shards"), through `wrangler d1 execute` on the catalogue like every admin command.
import { loadAppCode } from "./app-code.mjs";
import { Conflict, NotFound } from "./commands.mjs";
import { UsageError, execute, sqlInt, sqlString } from "./d1.mjs";
import { shardBindings } from "../d1-bindings.mjs";

/** The note a move queued here carries until the sweeper sends it (`d1 execute` cannot send a queue message). */
export const MOVE_NOTE = "queued by an operator (npm run admin -- shards move); the next sweep sends it";

function parseShard(raw) {
  if (!/^[1-9]\d{0,5}$/.test(raw ?? "")) throw new UsageError(`shard: a shard number (1, 2, ...), got ${JSON.stringify(raw ?? "")}`);
  return Number(raw);
}

async function parseContainerId(raw) {
  const { tryParseId } = await loadAppCode();
  const id = tryParseId(/^\d+$/.test(raw ?? "") ? `${raw}c` : raw, "c");
  if (id === null) throw new UsageError(`container id: expected <n>c or <n>, got ${JSON.stringify(raw ?? "")}`);
  return id;
}

/** A shard the environment's wrangler.toml binds (SHARD_<n>), or a refusal naming what to add. */
async function requireBinding(target, shard) {
  const bound = await shardBindings(target.env);
  if (!bound.includes(`SHARD_${shard}`)) {
    throw new Conflict(
      `wrangler.toml has no SHARD_${shard} binding${target.env ? ` in env.${target.env}` : ""}: add it, deploy, and ` +
        `apply its migrations (npm run db:migrate:${target.env ?? "local"}) first`,
    );
  }
}

/**
 * `shards list`: each shard with its containers, whether new ones go there, what the catalogue's two outboxes still
 * hold for it (`pending`: a count that keeps growing means the shard does not answer)
 * and the last error a drain met there (`outbox_error`, migration 0038: a drain skips a failing shard and drains the
 * others), the moves under way, and the outboxes' totals.
 */
export function shardsList(target) {
  const [shards, moves, [outboxes]] = execute(
    target,
    // Pending fact changes: each change's container looked up in the directory (shard_homes: both shards while it
    // moves), by primary key, so the count reads the outbox once per shard and no more of the directory.
    `SELECT s.id, s.accepting, s.containers, s.outbox_error, s.outbox_error_at,
       (SELECT count(*) FROM shard_cleanups k WHERE k.shard = s.id) AS cleanups,
       (SELECT count(*) FROM shard_fact_changes f
         WHERE EXISTS (SELECT 1 FROM shard_homes h WHERE h.container_id = f.container_id AND h.shard = s.id)) AS fact_changes
     FROM shards s ORDER BY s.id;
     SELECT container_id, shard, moving_to, move_started_at FROM shard_directory WHERE moving_to IS NOT NULL ORDER BY container_id;
     SELECT (SELECT count(*) FROM shard_cleanups) AS cleanups, (SELECT count(*) FROM shard_fact_changes) AS fact_changes`,
  );
  return {
    outboxes: { cleanups: outboxes.cleanups, fact_changes: outboxes.fact_changes },
    shards: shards.map((s) => ({
      id: s.id,
      accepting: Boolean(s.accepting),
      containers: s.containers,
      pending: { cleanups: s.cleanups, fact_changes: s.fact_changes },
      outbox_error: s.outbox_error,
      outbox_error_at: isoSeconds(s.outbox_error_at),
    })),
    moves: moves.map((m) => ({
      container: `${m.container_id}c`,
      from: m.shard,
      to: m.moving_to,
      started_at: isoSeconds(m.move_started_at),
    })),
  };
}

const isoSeconds = (unix) => (unix ? new Date(unix * 1000).toISOString().replace(/\.000Z$/, "Z") : null);

/** `shards add <n>`: shard n (bound in wrangler.toml) takes new containers; it was known already: it accepts again. */
export async function shardsAdd(target, [raw]) {
  const shard = parseShard(raw);
  await requireBinding(target, shard);
  execute(target, `INSERT INTO shards (id) VALUES (${sqlInt(shard)}) ON CONFLICT (id) DO UPDATE SET accepting = 1`);
  return shardsList(target);
}

/** `shards accept <n> on|off`: new containers go to shard n, or stop going there; never the last accepting one off. */
export async function shardsAccept(target, [raw, state]) {
  const shard = parseShard(raw);
  if (state !== "on" && state !== "off") throw new UsageError(`shards accept <n> on|off, got ${JSON.stringify(state ?? "")}`);
  const on = state === "on" ? 1 : 0;
  const [[found], [others]] = execute(
    target,
    `SELECT count(*) AS n FROM shards WHERE id = ${sqlInt(shard)};
     SELECT count(*) AS n FROM shards WHERE accepting = 1 AND id <> ${sqlInt(shard)}`,
  );
  if (!found.n) throw new NotFound(`no shard ${shard} (shards add ${shard} first)`);
  if (!on && !others.n) throw new Conflict(`shard ${shard} is the only one taking new containers: add or accept another first`);
  execute(target, `UPDATE shards SET accepting = ${on} WHERE id = ${sqlInt(shard)}`);
  return shardsList(target);
}

/**
 * `shards move <container> <shard>`: queues a `container-move` job (src/jobs/container-move.ts). The job row is due
 * at once, so the sweeper sends it within a minute, as for `jobs retry`.
 */
export async function shardsMove(target, [rawContainer, rawShard]) {
  const containerId = await parseContainerId(rawContainer);
  const to = parseShard(rawShard);
  await requireBinding(target, to);
  const [[placed], [known], [pending]] = execute(
    target,
    `SELECT (SELECT shard FROM shard_directory WHERE container_id = ${sqlInt(containerId)}) AS shard,
            (SELECT moving_to FROM shard_directory WHERE container_id = ${sqlInt(containerId)}) AS moving_to;
     SELECT count(*) AS n FROM shards WHERE id = ${sqlInt(to)};
     SELECT min(id) AS id FROM jobs WHERE type = 'container-move' AND status IN ('queued', 'running')
       AND json_extract(params, '$.containerId') = ${sqlInt(containerId)}`,
  );
  if (placed.shard === null) throw new NotFound(`no container ${containerId}c`);
  if (!known.n) throw new NotFound(`no shard ${to} in the catalogue (shards add ${to} first)`);
  if (placed.moving_to !== null) throw new Conflict(`container ${containerId}c is already moving to shard ${placed.moving_to}`);
  if (pending.id !== null) throw new Conflict(`container ${containerId}c has a move queued already (job ${pending.id}j)`);
  if (placed.shard === to) throw new Conflict(`container ${containerId}c is on shard ${to} already`);
  const params = JSON.stringify({ containerId, from: placed.shard, to });
  const [[job]] = execute(
    target,
    `INSERT INTO jobs (type, params, error, lease_until) VALUES ('container-move', ${sqlString(params)}, ${sqlString(MOVE_NOTE)}, unixepoch())
     RETURNING id, type, status, params`,
  );
  return { job: { id: `${job.id}j`, type: job.type, status: job.status, params: JSON.parse(job.params) } };
}

export function printShards({ shards, moves, outboxes }) {
  for (const s of shards) {
    console.log(`shard ${s.id}: ${s.containers} containers, ${s.accepting ? "accepting" : "not accepting"} new ones`);
    console.log(`  waiting for it: ${s.pending.cleanups} cleanups, ${s.pending.fact_changes} fact changes`);
    if (s.outbox_error) console.log(`  last outbox error (${s.outbox_error_at}): ${s.outbox_error}`);
  }
  for (const m of moves) console.log(`moving: ${m.container} from shard ${m.from} to ${m.to} since ${m.started_at ?? "?"}`);
  if (!moves.length) console.log("no move under way");
  console.log(`waiting for the shards: ${outboxes.cleanups} cleanups, ${outboxes.fact_changes} fact changes`);
}

export function printMove({ job }) {
  console.log(`job ${job.id} (container-move ${job.params.containerId}c: shard ${job.params.from} → ${job.params.to}) queued;`);
  console.log("the sweeper sends it within a minute; follow it with: npm run admin -- jobs show " + job.id);
}
