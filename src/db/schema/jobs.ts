import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { applications, users } from "./users";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // A name of the job registry (src/jobs/index.ts); the schema does not list them, so a new job type is a file and
    // one registry line, and the table never loads a handler.
    type: text("type").notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    // 0..100
    progress: integer("progress").notNull().default(0),
    // Small inputs only; large payloads (uploads) live in R2 under payloadKey.
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>(),
    payloadKey: text("payload_key"),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    // The application that started it with a signed request: its webhook endpoints hear job.succeeded/job.failed.
    applicationId: integer("application_id").references(() => applications.id, { onDelete: "set null" }),
    // The request that queued it (or queued the job that queued it), named in the job's log lines.
    requestId: text("request_id"),
    startedAt: integer("started_at", { mode: "timestamp" }),
    finishedAt: integer("finished_at", { mode: "timestamp" }),
    // While queued or running: when the sweeper takes over if the job shows no life (src/jobs/sweeper.ts).
    leaseUntil: integer("lease_until", { mode: "timestamp" }),
    // When the dead-letter queue's consumer failed it (its queue retries ran out); cleared when it is retried.
    deadLetteredAt: integer("dead_lettered_at", { mode: "timestamp" }),
    // Exclusive claims (docs/decisions.md, "Exclusive claims"): each delivery that claims the job bumps `epoch`, and
    // every later write of that delivery is conditional on it; `held` says a delivery holds it now (its lease is
    // its own), cleared when the delivery hands the job back for a queue retry or a continuation.
    epoch: integer("epoch").notNull().default(0),
    held: integer("held", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The staff listing, newest first under any of its filters (migrations/0027_jobs_listing.sql): one index per
    // combination of status and type, each ending in created_at (and the rowid, so created_at, id).
    index("jobs_created").on(t.createdAt),
    index("jobs_status_created").on(t.status, t.createdAt),
    index("jobs_type_created").on(t.type, t.createdAt),
    index("jobs_status_type_created").on(t.status, t.type, t.createdAt),
    index("jobs_created_by").on(t.createdBy),
    index("jobs_application").on(t.applicationId),
    // The sweeper's range scan over unfinished jobs only (migrations/0018_job_lease.sql).
    index("jobs_lease")
      .on(t.status, t.leaseUntil)
      .where(sql`${t.status} in ('queued', 'running')`),
    // The dead letters (npm run admin -- jobs dead-letters): only the few rows that have one.
    index("jobs_dead_letters")
      .on(t.deadLetteredAt)
      .where(sql`${t.deadLetteredAt} is not null`),
  ],
);
