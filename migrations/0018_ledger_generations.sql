-- Which of its organisation's ledgers a started broadcast lives in (its generation): the newest when it started.
-- Broadcasts started before generations existed are in the first (null is read as 0).
ALTER TABLE `broadcasts` ADD `ledger_generation` integer;
