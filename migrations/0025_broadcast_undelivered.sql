-- A broadcast's SMS that the carrier did not deliver (or the provider failed), each counted once with its first such
-- delivery report (issue 35, finding 3: src/modules/sms-hooks/delivery-status.ts). Like the bounces, the organisation's
-- ledger writes it once the broadcast started and projects it here.
ALTER TABLE `broadcasts` ADD `undelivered` integer DEFAULT 0 NOT NULL;