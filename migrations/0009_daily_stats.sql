CREATE TABLE `org_daily_stats` (
	`org_id` integer NOT NULL,
	`day` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`request_bytes` integer DEFAULT 0 NOT NULL,
	`emails_sent` integer DEFAULT 0 NOT NULL,
	`sms_sent` integer DEFAULT 0 NOT NULL,
	`messages_failed` integer DEFAULT 0 NOT NULL,
	`opens` integer DEFAULT 0 NOT NULL,
	`human_opens` integer DEFAULT 0 NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`human_clicks` integer DEFAULT 0 NOT NULL,
	`unsubscribes` integer DEFAULT 0 NOT NULL,
	`contacts_created` integer DEFAULT 0 NOT NULL,
	`contacts_deleted` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `day`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
