-- The recipients a broadcast selected when it started, counted then: the total the console shows before the walk of its
-- recipients is complete (src/modules/broadcast/progress.ts).
ALTER TABLE `broadcasts` ADD `planned_total` integer;