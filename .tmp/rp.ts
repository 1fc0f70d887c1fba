import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { recipientPage } from '/work/main/src/modules/broadcast/recipients.ts';
const rule = { orgId: 1, type: 'email', recipients: { filter: { tags: [1] } }, subscriptionId: 1, skipUnsubscribed: true } as any;
const q = new SQLiteSyncDialect().sqlToQuery(sql`SELECT p.id, p.name, p.address, p.reason FROM (${recipientPage(rule, 0, null, 1000)}) AS p`);
console.log(JSON.stringify(q));
