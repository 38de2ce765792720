CREATE SCHEMA IF NOT EXISTS "agentgov";
--> statement-breakpoint
CREATE TABLE "agentgov"."machines" (
	"id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"os_user" text NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agentgov"."events" (
	"id" text PRIMARY KEY NOT NULL,
	"framework" text NOT NULL,
	"session_id" text NOT NULL,
	"timestamp" text NOT NULL,
	"occurred_at" timestamp with time zone,
	"cwd" text NOT NULL,
	"tool_name" text NOT NULL,
	"canonical_tool" text NOT NULL,
	"arguments" jsonb NOT NULL,
	"result" jsonb,
	"machine_id" text NOT NULL REFERENCES "agentgov"."machines"("id"),
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_session_idx" ON "agentgov"."events" ("framework", "session_id");
--> statement-breakpoint
CREATE INDEX "events_occurred_at_idx" ON "agentgov"."events" ("occurred_at");
--> statement-breakpoint
CREATE INDEX "events_machine_idx" ON "agentgov"."events" ("machine_id");
--> statement-breakpoint
CREATE TABLE "agentgov"."assessments" (
	"event_id" text NOT NULL REFERENCES "agentgov"."events"("id"),
	"kind" text NOT NULL,
	"score" integer NOT NULL,
	"level" text NOT NULL,
	"action" text NOT NULL,
	"reason_code" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"verdict" text,
	"verdict_reason" text,
	"decided_by" text,
	"assessed_at" timestamp with time zone NOT NULL,
	"machine_id" text NOT NULL REFERENCES "agentgov"."machines"("id"),
	PRIMARY KEY ("event_id", "kind")
);
--> statement-breakpoint
CREATE INDEX "assessments_level_idx" ON "agentgov"."assessments" ("level");
--> statement-breakpoint
CREATE INDEX "assessments_assessed_at_idx" ON "agentgov"."assessments" ("assessed_at");
