CREATE INDEX `events_timestamp_idx` ON `events` (`timestamp`);
--> statement-breakpoint
CREATE INDEX `events_cwd_idx` ON `events` (`cwd`);
--> statement-breakpoint
CREATE INDEX `assessments_event_kind_idx` ON `assessments` (`event_id`,`kind`);
--> statement-breakpoint
CREATE INDEX `assessments_reason_idx` ON `assessments` (`reason_code`);
