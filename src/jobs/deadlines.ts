/**
 * The deadlines of a durable job (docs/operations.md, "Durable jobs"): `enqueue` sets the first, the runner renews
 * the lease while a handler works, and the sweeper acts on the jobs past theirs. They live apart from all three so
 * that none of them imports another for a number.
 */

/**
 * How long a queued job may wait for its first delivery; past it, its message is taken as lost and re-sent. Each
 * re-send doubles the wait (60, 120, 240 s, ...), so a job that is only late (a long backlog) is not re-sent, and
 * counted, every minute.
 */
export const QUEUED_TIMEOUT_SECONDS = 60;

/**
 * How long a delivery may go without reporting progress (`ctx.progress` renews it); past it, the delivery is taken
 * as dead and the job is re-sent. Handlers report progress far more often (every chunk of an import).
 */
export const LEASE_SECONDS = 120;

/**
 * How often `ctx.renew` writes (docs/decisions.md, "Exclusive claims"): long loops call it before every chunk, and a
 * call this soon after the last renewal writes nothing. A lease renewed this often never runs out under a live
 * delivery, and a delivery stalled past its lease checks its claim before its next chunk.
 */
export const RENEW_SECONDS = 10;

/**
 * Attempts before the sweeper fails a job: the deliveries the queue makes of one message (wrangler.toml
 * `max_retries = 5`, so 6), counting a send that never arrived as one. A job whose every message is lost thus
 * fails about 32 minutes after it was accepted (60 + 60 + 120 + 240 + 480 + 960 s).
 */
export const MAX_ATTEMPTS = 6;
