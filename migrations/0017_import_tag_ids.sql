-- The import wizard's "tag every imported contact": the tags (ids, JSON) each imported contact gets besides those of
-- its row's tags column.
ALTER TABLE `imports` ADD `tag_ids` text;
