-- The request that queued a job (its request id, as the request's log line and error body name it), so every log line
-- of the job can be matched with the request that started it (docs/operations.md, "Logs and alerts"). A job queued by
-- another job carries the first request's id; jobs from before this migration have none.
ALTER TABLE `jobs` ADD `request_id` text;
