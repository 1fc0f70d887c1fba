-- A broadcast's messages that bounced (hard) and that were reported as spam (issue 24: src/modules/bounce). Like its
-- other counters, the organisation's ledger writes them once it started and projects them here.
ALTER TABLE `broadcasts` ADD `bounces` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `complaints` integer DEFAULT 0 NOT NULL;
