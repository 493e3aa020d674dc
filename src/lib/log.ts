/**
 * The one way the Worker writes a log line (docs/operations.md, "Logs and alerts"): one JSON object per line with
 * `level` and `time` (ISO 8601) first, then the fields. Workers Logs takes the level from the console method, so
 * `warn` and `error` lines go through `console.warn` and `console.error` and can be filtered and alerted on.
 * Fields never hold credentials: callers pass redacted paths and no bodies.
 */
type LogLevel = "info" | "warn" | "error";

export function log(level: LogLevel, fields: Record<string, unknown>) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
