-- The days' recipients who opened (a click counts as an open) and who clicked, all and judged human: the dashboard
-- counts opens as a broadcast does, people who opened (issue 23 #7). Days before this change read 0.
ALTER TABLE `org_daily_stats` ADD `opened` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `org_daily_stats` ADD `human_opened` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `org_daily_stats` ADD `clicked` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `org_daily_stats` ADD `human_clicked` integer DEFAULT 0 NOT NULL;
