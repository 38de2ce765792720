ALTER TABLE `ingest_offsets` ADD `fingerprint` text;
--> statement-breakpoint
ALTER TABLE `ingest_offsets` ADD `resets` text DEFAULT '{}' NOT NULL;
--> statement-breakpoint
ALTER TABLE `ingest_offsets` ADD `skipped_before` text DEFAULT '{}' NOT NULL;
