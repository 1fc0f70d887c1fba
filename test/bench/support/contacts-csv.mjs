// The benchmark's contacts file: deterministic rows with two address types, four kinds of custom fields and
// tags, about 100 bytes a row (1,000,000 rows stay under the 100 MB import limit).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export const CSV_HEADER = 'name,email,phone,city,age,vip,plan,interests,tags,note';
export const PLANS = ['gold', 'silver', 'bronze', 'platinum'];
export const INTERESTS = ['music', 'art', 'sport', 'travel'];

/** The fields the benchmark creates before importing, with their existing options (some CSV values are new). */
export const BENCH_FIELDS = [
  { name: 'City', alias: 'city', type: 'text', column: 3 },
  { name: 'Age', alias: 'age', type: 'number', column: 4 },
  { name: 'VIP', alias: 'vip', type: 'boolean', column: 5 },
  { name: 'Plan', alias: 'plan', type: 'select', column: 6, options: ['gold', 'silver', 'bronze'] },
  { name: 'Interests', alias: 'interests', type: 'multiselect', column: 7, options: ['music', 'art', 'sport'] },
];

/** Values of row i: [name, email, phone or '', city, age, vip, plan, interests[], tags[], note]. */
export function contactValues(i) {
  return {
    name: `Person ${i}`,
    email: `person${i}@example.com`,
    // +15552...: the seeded organisation's contacts have +1555010xxxx, which an import would update, not create.
    phone: i % 4 === 0 ? `+1555${2_000_000 + i}` : '',
    city: `City ${i % 100}`,
    age: 18 + (i % 60),
    vip: i % 3 === 0,
    plan: PLANS[i % 4],
    interests: [INTERESTS[i % 4], INTERESTS[(i + 1) % 4]],
    tags: [`tag-${i % 20}`, 'news'],
    note: `Hi, ${i}`,
  };
}

/** One CSV line (with its LF) for row i. */
export function contactLine(i) {
  const v = contactValues(i);
  return `${v.name},${v.email},${v.phone},${v.city},${v.age},${v.vip ? 'yes' : 'no'},${v.plan},${v.interests.join(';')},${v.tags.join(';')},"${v.note}"\n`;
}

/** Writes the header and n rows to `file`; resolves the size in bytes. */
export async function writeContactsCsv(file, n) {
  const out = createWriteStream(file);
  let size = 0;
  let buffer = `${CSV_HEADER}\n`;
  for (let i = 0; i < n; i++) {
    buffer += contactLine(i);
    if (buffer.length > 1 << 20) {
      size += Buffer.byteLength(buffer);
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  size += Buffer.byteLength(buffer);
  out.end(buffer);
  await once(out, 'finish');
  return size;
}

/** The import mapping for this file, given the created field ids by alias. */
export function benchMapping(fieldIds) {
  return [
    { column: 0, target: 'name' },
    { column: 1, target: 'address', address_type: 'email' },
    { column: 2, target: 'address', address_type: 'phone' },
    ...BENCH_FIELDS.map((f) => ({ column: f.column, target: 'field', field_id: fieldIds[f.alias] })),
    { column: 8, target: 'tags' },
    { column: 9, target: 'note' },
  ];
}

/** SQL creating the benchmark's fields and options in the organisation `domain`. */
export function benchFieldsSql(domain) {
  const org = `(SELECT id FROM organizations WHERE domain = '${domain}')`;
  const lines = [];
  BENCH_FIELDS.forEach((f, i) => {
    lines.push(`INSERT INTO fields (org_id, name, alias, type, priority) VALUES (${org}, '${f.name}', '${f.alias}', '${f.type}', ${i + 1});`);
    (f.options ?? []).forEach((o, p) => {
      lines.push(
        `INSERT INTO field_options (org_id, field_id, value, position) SELECT ${org}, id, '${o}', ${p} FROM fields WHERE alias = '${f.alias}' AND org_id = ${org};`,
      );
    });
  });
  return lines.join('\n');
}
