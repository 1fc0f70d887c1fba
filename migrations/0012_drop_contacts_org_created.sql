-- Contacts sort by id for their creation order (0011): no query reads this index any more, and every insert (a
-- million-row import included) paid to keep it.
DROP INDEX `contacts_org_created`;