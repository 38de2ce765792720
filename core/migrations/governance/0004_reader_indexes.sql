DROP INDEX IF EXISTS `events_period_idx`;
--> statement-breakpoint
DROP INDEX IF EXISTS `assessments_effective_idx`;
--> statement-breakpoint
ALTER TABLE `events` ADD `effective_score` integer;
--> statement-breakpoint
ALTER TABLE `events` ADD `effective_level` text;
--> statement-breakpoint
ALTER TABLE `events` ADD `effective_action` text;
--> statement-breakpoint
ALTER TABLE `events` ADD `effective_reason` text;
--> statement-breakpoint
UPDATE `events` SET (`effective_score`, `effective_level`, `effective_action`, `effective_reason`) = (
	SELECT `a`.`score`, `a`.`level`, `a`.`action`, `a`.`reason_code` FROM `assessments` `a`
	WHERE `a`.`event_id` = `events`.`id` ORDER BY `a`.`kind` = 'gate' DESC, `a`.`id` DESC LIMIT 1
);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `assessments_effective_trg` AFTER INSERT ON `assessments`
WHEN NEW.`kind` = 'gate' OR NOT EXISTS (
	SELECT 1 FROM `assessments` `g` WHERE `g`.`event_id` = NEW.`event_id` AND `g`.`kind` = 'gate' AND `g`.`id` <> NEW.`id`
)
BEGIN
	UPDATE `events` SET `effective_score` = NEW.`score`, `effective_level` = NEW.`level`, `effective_action` = NEW.`action`,
		`effective_reason` = NEW.`reason_code` WHERE `id` = NEW.`event_id`;
END;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `events_effective_idx` ON `events` (`timestamp`,`framework`,`cwd`,`session_id`,`id`,`effective_level`,`effective_action`,`effective_reason`,`effective_score`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `events_cwd_idx` ON `events` (`cwd`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `assessments_event_kind_idx` ON `assessments` (`event_id`,`kind`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `assessments_reason_idx` ON `assessments` (`reason_code`);
