-- Issue 22's upkeep of the ledgers without asking every one of them: when each ledger's kept list totals were last
-- recomputed (the daily repair, src/modules/ledger/recount.ts), and a mark of single messages written into it that the
-- watchdog has not yet seen finish (src/modules/ledger/singles.ts). Existing ledgers start marked, so each is asked once.
ALTER TABLE `ledgers` ADD `counted_at` text;--> statement-breakpoint
ALTER TABLE `ledgers` ADD `singles_mark` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `ledgers` ADD `singles_checked` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `ledgers_singles_pending` ON `ledgers` (`name`) WHERE singles_mark > singles_checked;
