CREATE TABLE `sessions` (
	`framework` text NOT NULL,
	`session_id` text NOT NULL,
	`cwd` text NOT NULL,
	`first_seen` text NOT NULL,
	`last_seen` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`framework`, `session_id`)
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`framework` text NOT NULL,
	`session_id` text NOT NULL,
	`timestamp` text NOT NULL,
	`cwd` text NOT NULL,
	`tool_name` text NOT NULL,
	`canonical_tool` text NOT NULL,
	`arguments` text NOT NULL,
	`result` text,
	`source` text NOT NULL,
	`ingested_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_session_idx` ON `events` (`framework`,`session_id`);
--> statement-breakpoint
CREATE INDEX `events_source_idx` ON `events` (`source`);
--> statement-breakpoint
CREATE TABLE `assessments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`score` integer NOT NULL,
	`level` text NOT NULL,
	`action` text NOT NULL,
	`reason_code` text NOT NULL,
	`evidence` text NOT NULL,
	`verdict` text,
	`verdict_reason` text,
	`decided_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `assessments_event_idx` ON `assessments` (`event_id`);
--> statement-breakpoint
CREATE INDEX `assessments_level_idx` ON `assessments` (`level`);
--> statement-breakpoint
CREATE TABLE `ingest_offsets` (
	`file` text PRIMARY KEY NOT NULL,
	`adapter` text NOT NULL,
	`offset` integer NOT NULL,
	`size` integer NOT NULL,
	`inode` integer NOT NULL,
	`skipped` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gate_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`socket` text NOT NULL,
	`token` text NOT NULL,
	`pid` integer NOT NULL,
	`started_at` text NOT NULL
);
