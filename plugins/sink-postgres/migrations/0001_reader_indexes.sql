CREATE INDEX "events_timestamp_idx" ON "agentgov"."events" ("timestamp");
--> statement-breakpoint
CREATE INDEX "events_cwd_idx" ON "agentgov"."events" ("cwd");
--> statement-breakpoint
CREATE INDEX "assessments_reason_idx" ON "agentgov"."assessments" ("reason_code");
