-- Transactional messages (issue 36, src/modules/transactional): the organisation API key that sent one, the caller's
-- metadata and how it goes out (cc, bcc, reply-to, headers, attachments, tracking, category). Messages live in the
-- organisations' ledgers (ledger step 9 adds the same columns there); D1's table keeps the same shape.
ALTER TABLE `messages` ADD `api_key_id` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `metadata` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `send_options` text;
