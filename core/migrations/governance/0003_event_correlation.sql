ALTER TABLE `events` ADD `correlation_key` text;
--> statement-breakpoint
ALTER TABLE `events` ADD `paired` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX `events_correlation_idx` ON `events` (`correlation_key`);
--> statement-breakpoint
CREATE TABLE `event_aliases` (
	`alias_id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
