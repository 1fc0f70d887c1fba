import { beforeEach, describe, expect, it } from 'vitest';
import type { ActivityLogEntry } from '../../../src/shared/contracts/activity-log';
import { api, create, list, newSession, type Session } from '../api-helpers';

let s: Session;
beforeEach(async () => {
  s = await newSession('log');
});

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

async function entries(query: string) {
  return (await list<ActivityLogEntry>(s, 'activity-log', `${query}&page_size=100&sort_by=id&sort_order=asc`)).items;
}
const byField = (items: ActivityLogEntry[]) => Object.fromEntries(items.map((e) => [e.field, [e.previous_value, e.new_value]]));

describe('activity log', () => {
  it('records create, update and delete of a field with browser, OS and device from the User-Agent', async () => {
    const created = await api(
      s,
      'POST',
      '/field',
      { name: 'Tier', alias: 'tier', type: 'select', options: [{ value: 'gold' }] },
      { 'user-agent': CHROME_WINDOWS },
    );
    const id = created.body.data.id;
    const optionId = created.body.data.options[0].id;
    const log = await entries(`?entity=field&entity_id=${id}`);
    expect(log.every((e) => e.action === 'create' && e.entity === 'field' && e.entity_id === id)).toBe(true);
    expect(byField(log)).toEqual({
      name: [null, 'Tier'],
      alias: [null, 'tier'],
      type: [null, 'select'],
      options: [null, JSON.stringify([{ id: optionId, value: 'gold' }])],
    });
    expect(log[0].browser).toMatch(/^Chrome 120/);
    expect(log[0].os).toMatch(/^Windows/);
    expect(log[0].device).toMatch(/desktop/);
    expect(log[0].user_id).toEqual(expect.any(Number));
    expect(log[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    await api(s, 'PATCH', `/field/${id}`, { name: 'Level' }, { 'user-agent': SAFARI_IPHONE });
    const update = (await entries(`?entity=field&entity_id=${id}`)).filter((e) => e.action === 'update');
    expect(update.map((e) => [e.field, e.previous_value, e.new_value])).toEqual([['name', 'Tier', 'Level']]);
    expect(update[0].browser).toMatch(/^Safari/);
    expect(update[0].os).toMatch(/^iOS/);
    expect(update[0].device).toMatch(/mobile/);

    await api(s, 'DELETE', `/field/${id}`);
    const deleted = (await entries(`?entity=field&entity_id=${id}`)).filter((e) => e.action === 'delete');
    expect(byField(deleted)).toMatchObject({ name: ['Level', null], alias: ['tier', null] });
    expect(deleted[0].browser).toBeNull();
  });

  it("records changes to a contact's addresses, tags and attributes", async () => {
    const tag = await create(s, 'tag', { name: 'VIP' });
    const age = await create(s, 'field', { name: 'Age', alias: 'age', type: 'number' });
    const contact = await create(s, 'contact', { name: 'Ann', addresses: [{ type: 'email', value: 'ann@example.com' }] });
    const address = contact.addresses[0];
    await api(
      s,
      'PATCH',
      `/contact/${contact.id}`,
      { addresses: [address, { type: 'phone', value: '+15550100' }], tags: [tag.id], attributes: [{ field_id: age.id, value: 30 }] },
      { 'user-agent': CHROME_WINDOWS },
    );
    const updated = (await api(s, 'GET', `/contact/${contact.id}`)).body.data;
    const changes = (await entries(`?entity=contact&entity_id=${contact.id}`)).filter((e) => e.action === 'update');
    expect(byField(changes)).toEqual({
      addresses: [JSON.stringify([address]), JSON.stringify(updated.addresses)],
      tags: ['[]', JSON.stringify([{ id: tag.id, name: 'VIP' }])],
      attributes: ['[]', JSON.stringify([{ field_id: age.id, value: 30 }])],
    });
    expect(changes[0].browser).toMatch(/^Chrome/);
  });

  it('records subscriptions and blacklist entries, and bulk deletes with their ids', async () => {
    const sub = await create(s, 'subscription', { name: 'News' });
    await api(s, 'PUT', `/subscription/${sub.id}`, { name: 'Newsletter' });
    const entry = await create(s, 'blacklist', { type: 'email', value: 'x@example.com', info: 'spam' });
    await api(s, 'DELETE', `/blacklist/${entry.id}`);
    const c1 = await create(s, 'contact', { name: 'A', addresses: [{ type: 'email', value: 'a@example.com' }] });
    const c2 = await create(s, 'contact', { name: 'B', addresses: [{ type: 'email', value: 'b@example.com' }] });
    await api(s, 'DELETE', '/contact', { ids: [c1.id, c2.id] });

    const subLog = await entries(`?entity=subscription&entity_id=${sub.id}`);
    expect(subLog.map((e) => [e.action, e.field, e.previous_value, e.new_value])).toEqual([
      ['create', 'name', null, 'News'],
      ['update', 'name', 'News', 'Newsletter'],
    ]);
    const blLog = await entries(`?entity=blacklist&entity_id=${entry.id}`);
    expect(blLog.map((e) => [e.action, e.field])).toEqual([
      ['create', 'type'],
      ['create', 'value'],
      ['create', 'info'],
      ['delete', 'type'],
      ['delete', 'value'],
      ['delete', 'info'],
    ]);
    const bulk = (await entries('?entity=contact')).filter((e) => e.entity_id === null);
    expect(bulk.map((e) => [e.action, e.field, e.previous_value])).toEqual([['delete', 'ids', JSON.stringify([c1.id, c2.id])]]);
  });

  it('lists newest first by default, searches values, and is read-only', async () => {
    await create(s, 'tag', { name: 'first-tag' });
    await create(s, 'subscription', { name: 'second-sub' });
    const all = await list<ActivityLogEntry>(s, 'activity-log');
    expect(all.items.map((e) => e.entity)).toEqual(['subscription', 'tag']);
    expect((await list<ActivityLogEntry>(s, 'activity-log', '?search=second')).items.map((e) => e.new_value)).toEqual(['second-sub']);
    expect((await list<ActivityLogEntry>(s, 'activity-log', '?search=subscription')).meta.total).toBe(1);
    const one = all.items[0];
    expect((await api(s, 'GET', `/activity-log/${one.id}`)).body.data).toEqual(one);
    expect((await api(s, 'POST', '/activity-log', {})).status).toBe(404);
    expect((await api(s, 'PUT', `/activity-log/${one.id}`, {})).status).toBe(404);
    expect((await api(s, 'DELETE', `/activity-log/${one.id}`)).status).toBe(404);
    expect((await api(s, 'DELETE', '/activity-log', {})).status).toBe(404);
    expect((await api(s, 'GET', '/activity-log?sort_by=field')).status).toBe(422);
    expect((await api(s, 'GET', '/activity-log?entity_id=abc')).status).toBe(422);
    expect((await list(s, 'activity-log')).meta.total).toBe(2);
  });
});
