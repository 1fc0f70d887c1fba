-- The organisations' messages move into their ledgers (src/modules/ledger). Each ledger hands out message ids from
-- its own block (id_base x 2^32 upwards: unique platform-wide, so API ids, tracking and unsubscribe tokens keep
-- resolving, and ids made before the move, all below 2^32, keep theirs); `ready` once the ledger was initialised
-- for its owner. A started broadcast's status and counters are written by its ledger, which projects them here
-- with a revision so a late projection never overwrites a newer one. A message keeps its contact's name (the
-- recipients tab lists and searches it without the contacts, which stay in D1).
ALTER TABLE `broadcasts` ADD `rev` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `contact_name` text;--> statement-breakpoint
ALTER TABLE `ledgers` ADD `id_base` integer;--> statement-breakpoint
ALTER TABLE `ledgers` ADD `ready` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `ledgers_id_base` ON `ledgers` (`id_base`);
