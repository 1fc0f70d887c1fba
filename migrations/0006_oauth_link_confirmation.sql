ALTER TABLE `oauth_states` ADD `verified_at` text;--> statement-breakpoint
ALTER TABLE `oauth_states` ADD `subject` text;--> statement-breakpoint
ALTER TABLE `oauth_states` ADD `email` text;--> statement-breakpoint
ALTER TABLE `oauth_states` ADD `display_name` text;