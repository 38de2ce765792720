CREATE TABLE `sink_outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sink` text NOT NULL,
	`assessment_id` integer NOT NULL,
	`enqueued_at` text NOT NULL,
	FOREIGN KEY (`assessment_id`) REFERENCES `assessments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sink_outbox_sink_assessment_idx` ON `sink_outbox` (`sink`,`assessment_id`);
--> statement-breakpoint
CREATE INDEX `sink_outbox_sink_seq_idx` ON `sink_outbox` (`sink`,`seq`);
--> statement-breakpoint
CREATE TABLE `sink_state` (
	`sink` text PRIMARY KEY NOT NULL,
	`delivered` integer DEFAULT 0 NOT NULL,
	`rejected` integer DEFAULT 0 NOT NULL,
	`last_delivered_at` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`last_error_at` text,
	`last_rejection` text,
	`next_attempt_at` text,
	`updated_at` text NOT NULL
);
