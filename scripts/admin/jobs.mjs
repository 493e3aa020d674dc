// `npm run admin -- jobs <list|show|retry|dead-letters|backlog>`: the jobs table as an operator needs it
// (docs/operations.md, "Jobs runbook"), through `wrangler d1 execute` like every admin command (d1.mjs). Each command
// answers a plain object; the print functions below are what scripts/admin.mjs prints without --json.
import { loadAppCode } from "./app-code.mjs";
import { Conflict, NotFound } from "./commands.mjs";
import { UsageError, execute, sqlInt, sqlString } from "./d1.mjs";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;
/**
 * Past its deadline by this much, an unfinished job shows the sweeper is not running: it runs every minute and moves
 * every due job (100 a run) the minute it is due (src/jobs/sweeper.ts).
 */
export const OVERDUE_SECONDS = 120;
/**
 * The error a job retried here carries until it runs: it has no queue message (`d1 execute` cannot send one), so the
 * sweeper sends it, counting that as its first attempt, and keeps this text as the reason it did.
 */
export const RETRY_NOTE = "queued again by an operator (npm run admin -- jobs retry); the next sweep sends it";

const UNIT_SECONDS = { s: 1, m: 60, h: 60 * 60, d: 24 * 60 * 60, w: 7 * 24 * 60 * 60 };

/** `--since`: a duration back from now (`30m`, `1h`, `2d`, `1w`) or a time as the API reads one (ISO 8601 or unix seconds). */
async function parseSince(raw) {
  if (raw === undefined) return undefined;
  const m = /^(\d{1,6})([smhdw])$/.exec(raw);
  if (m) return Math.floor(Date.now() / 1000) - Number(m[1]) * UNIT_SECONDS[m[2]];
  const { parseInstant } = await loadAppCode();
  const at = parseInstant(raw);
  if (at === undefined) throw new UsageError(`--since: a duration (30m, 1h, 2d, 1w) or an ISO 8601 time, got ${JSON.stringify(raw)}`);
  return at;
}

function parseLimit(raw) {
  if (raw === undefined) return DEFAULT_LIMIT;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) throw new UsageError(`--limit: 1 to ${MAX_LIMIT}, got ${JSON.stringify(raw)}`);
  return n;
}

async function parseJobId(raw) {
  const { tryParseId } = await loadAppCode();
  const id = tryParseId(/^\d+$/.test(raw ?? "") ? `${raw}j` : raw, "j");
  if (id === null) throw new UsageError(`job id: expected <n>j or <n>, got ${JSON.stringify(raw ?? "")}`);
  return id;
}

const time = (seconds) =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");
const json = (text) => {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A row as the commands answer it: wire ids, ISO times, JSON parsed; only the columns the query selected. */
async function jobView(row) {
  const { formatId } = await loadAppCode();
  const view = { id: formatId(row.id, "j") };
  for (const [column, value] of Object.entries(row)) {
    if (column === "id") continue;
    if (column.endsWith("_at") || column === "lease_until") view[column] = time(value);
    else if (column === "params" || column === "result") view[column] = json(value);
    else if (column === "created_by") view[column] = value === null ? null : formatId(value, "u");
    else if (column === "application_id") view.application = value === null ? null : formatId(value, "a");
    else view[column] = value;
  }
  return view;
}

const SUMMARY = "id, type, status, attempts, progress, error, created_at, finished_at, dead_lettered_at, created_by";

/**
 * The listing's index for the filters given, as GET /v4/jobs.json picks it (src/db/queries/jobs.ts, `listingIndex`;
 * migrations/0027_jobs_listing.sql), so a remote listing reads about as many rows as it prints.
 */
const listingIndex = ({ status, type }) =>
  status && type ? "jobs_status_type_created" : status ? "jobs_status_created" : type ? "jobs_type_created" : "jobs_created";

/** `jobs list [--status <s>] [--type <t>] [--since <when>] [--limit <n>]`: newest first, like the API's listing. */
export async function jobsList(target, _args, { status, type, since, limit }) {
  const { JOB_STATUSES } = await loadAppCode();
  if (status !== undefined && !JOB_STATUSES.includes(status)) throw new UsageError(`--status: one of ${JOB_STATUSES.join(", ")}`);
  // The registry is not bundled here (it pulls in the whole Worker): a type is checked for shape only.
  if (type !== undefined && !/^[a-z][a-z0-9-]{0,39}$/.test(type)) throw new UsageError(`--type: a job type such as srt-import`);
  const from = await parseSince(since);
  const n = parseLimit(limit);
  const where = [
    status && `status = ${sqlString(status)}`,
    type && `type = ${sqlString(type)}`,
    from !== undefined && `created_at >= ${Math.trunc(from)}`,
  ].filter(Boolean);
  const [rows] = execute(
    target,
    `SELECT ${SUMMARY} FROM jobs INDEXED BY ${listingIndex({ status, type })}
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id DESC LIMIT ${n + 1}`,
  );
  return { jobs: await Promise.all(rows.slice(0, n).map(jobView)), more: rows.length > n };
}

/** `jobs show <id>`: every column of one job. */
export async function jobsShow(target, [rawId]) {
  const id = await parseJobId(rawId);
  const [rows] = execute(target, `SELECT * FROM jobs WHERE id = ${sqlInt(id)}`);
  if (!rows.length) throw new NotFound(`no job ${id}j`);
  return { job: await jobView(rows[0]) };
}

/**
 * `jobs retry <id>`: a failed job back to `queued` as a new attempt, as POST /v4/jobs/<id>/retry.json does
 * (src/db/queries/jobs.ts, `requeueFailedJob`), except that `d1 execute` cannot send its queue message: the job is
 * due at once, so the sweeper sends it within a minute (RETRY_NOTE says so in its `error` until it runs). A job that
 * kept its input in R2 is refused: that upload is deleted when a job fails, and only the API route can check.
 */
export async function jobsRetry(target, [rawId]) {
  const id = sqlInt(await parseJobId(rawId));
  const [[found], updated] = execute(
    target,
    `SELECT (SELECT status FROM jobs WHERE id = ${id}) AS status, (SELECT payload_key FROM jobs WHERE id = ${id}) AS payload_key;
     UPDATE jobs SET status = 'queued', attempts = 0, progress = 0, result = NULL, error = ${sqlString(RETRY_NOTE)},
       started_at = NULL, finished_at = NULL, dead_lettered_at = NULL, lease_until = unixepoch(), updated_at = unixepoch()
     WHERE id = ${id} AND status = 'failed' AND payload_key IS NULL
     RETURNING ${SUMMARY}, lease_until`,
  );
  if (found.status === null) throw new NotFound(`no job ${id}j`);
  if (found.status !== "failed") throw new Conflict(`job ${id}j is ${found.status}: only a failed job can be retried`);
  if (!updated.length) {
    throw new Conflict(
      `job ${id}j kept its input in R2 (${found.payload_key}), which is deleted when a job fails: start the work again, ` +
        `or retry it with POST /v4/jobs/${id}j/retry.json, which checks whether the input is still there`,
    );
  }
  return { job: await jobView(updated[0]) };
}

/**
 * `jobs dead-letters [--since <when>] [--limit <n>]`: the jobs the dead-letter queue's consumer failed (queues/index.ts:
 * every queue retry failed), newest first, with the last error. A retry takes a job off this list.
 */
export async function jobsDeadLetters(target, _args, { since, limit }) {
  const from = await parseSince(since);
  const n = parseLimit(limit);
  const [rows] = execute(
    target,
    `SELECT ${SUMMARY} FROM jobs INDEXED BY jobs_dead_letters
     WHERE dead_lettered_at IS NOT NULL${from === undefined ? "" : ` AND dead_lettered_at >= ${Math.trunc(from)}`}
     ORDER BY dead_lettered_at DESC, id DESC LIMIT ${n + 1}`,
  );
  return { jobs: await Promise.all(rows.slice(0, n).map(jobView)), more: rows.length > n };
}

/**
 * `jobs backlog`: queued and running jobs by type, with the oldest one's age, and how many are overdue (past their
 * deadline by more than OVERDUE_SECONDS: the sweeper has not run).
 */
export async function jobsBacklog(target) {
  const [groups, [overdue], [{ now }]] = execute(
    target,
    `SELECT type, status, count(*) AS jobs, min(created_at) AS oldest_created_at FROM jobs
     WHERE status IN ('queued', 'running') GROUP BY type, status ORDER BY type, status;
     SELECT count(*) AS jobs, min(lease_until) AS oldest_deadline FROM jobs
     WHERE status IN ('queued', 'running') AND lease_until < unixepoch() - ${OVERDUE_SECONDS};
     SELECT unixepoch() AS now`,
  );
  return {
    backlog: groups.map((g) => ({
      type: g.type,
      status: g.status,
      jobs: g.jobs,
      oldest_created_at: time(g.oldest_created_at),
      oldest_age_seconds: now - g.oldest_created_at,
    })),
    overdue: { jobs: overdue.jobs, oldest_deadline: time(overdue.oldest_deadline) },
  };
}

function printTable(header, rows) {
  const table = [header, ...rows.map((r) => r.map((cell) => (cell === null || cell === undefined ? "-" : String(cell))))];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const r of table) console.log(r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join("  "));
}

const oneLine = (text, max = 80) => {
  if (text === null || text === undefined) return null;
  const line = String(text).replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

export function printJobs({ jobs, more }) {
  if (!jobs.length) return console.log("no jobs");
  printTable(
    ["id", "type", "status", "attempts", "created", "finished", "error"],
    jobs.map((j) => [j.id, j.type, j.status, j.attempts, j.created_at, j.finished_at, oneLine(j.error)]),
  );
  if (more) console.log("(more: narrow with --status, --type or --since, or raise --limit)");
}

export function printDeadLetters({ jobs, more }) {
  if (!jobs.length) return console.log("no dead letters");
  printTable(
    ["id", "type", "dead-lettered", "created by", "error"],
    jobs.map((j) => [j.id, j.type, j.dead_lettered_at, j.created_by, oneLine(j.error)]),
  );
  if (more) console.log("(more: narrow with --since, or raise --limit)");
}

export function printJob({ job }) {
  const width = Math.max(...Object.keys(job).map((k) => k.length));
  for (const [key, value] of Object.entries(job)) {
    const text = value !== null && typeof value === "object" ? JSON.stringify(value) : value;
    console.log(`${key.padEnd(width)}  ${text ?? "-"}`);
  }
}

export function printRetried({ job }) {
  console.log(`job ${job.id} (${job.type}) is queued again; the sweeper sends it within a minute (npm run admin -- jobs show ${job.id})`);
}

export function printBacklog({ backlog, overdue }) {
  if (!backlog.length) console.log("no queued or running jobs");
  else
    printTable(
      ["type", "status", "jobs", "oldest created", "oldest age (s)"],
      backlog.map((b) => [b.type, b.status, b.jobs, b.oldest_created_at, b.oldest_age_seconds]),
    );
  if (overdue.jobs) {
    console.log(
      `${overdue.jobs} job(s) past their deadline by more than ${OVERDUE_SECONDS} s (the oldest since ${overdue.oldest_deadline}): ` +
        'the sweeper is not running (docs/operations.md, "Jobs runbook")',
    );
  }
}
