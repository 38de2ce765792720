CREATE INDEX IF NOT EXISTS `events_period_idx` ON `events` (`timestamp`,`framework`,`cwd`,`session_id`,`id`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `events_cwd_idx` ON `events` (`cwd`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `assessments_effective_idx` ON `assessments` (`event_id`,`kind`,`level`,`action`,`reason_code`,`score`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `assessments_reason_idx` ON `assessments` (`reason_code`);
