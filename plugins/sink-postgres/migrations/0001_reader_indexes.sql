CREATE INDEX IF NOT EXISTS "events_period_idx" ON "agentgov"."events" ("timestamp") INCLUDE ("framework", "cwd", "session_id", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_cwd_idx" ON "agentgov"."events" ("cwd");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "assessments_effective_idx" ON "agentgov"."assessments" ("event_id", "kind") INCLUDE ("level", "action", "reason_code", "score");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "assessments_reason_idx" ON "agentgov"."assessments" ("reason_code");
