// Names to ids for one import run: tags by name and field options by value, created when missing.
// Creation is idempotent (ON CONFLICT DO NOTHING on the unique name/value) and runs before the atomic batch
// that uses the ids, so a retried batch finds them; an unused tag or option left by a crash is harmless.
// Every statement binds the organisation id itself (raw D1 for json_each; same rule as TenantScope).
import type { FieldMeta } from './row-rules';

/** The field contract's cap on options (src/shared/contracts/field.ts); an import never grows a field past it. */
export const IMPORT_MAX_FIELD_OPTIONS = 500;

/** Tag name -> id for one organisation, filled as batches need them. */
export class TagIds {
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly d1: D1Database,
    private readonly orgId: number,
  ) {}

  get(name: string): number | undefined {
    return this.ids.get(name);
  }

  /** Makes sure every name has an id: finds existing tags and creates the others (appended to the tag order). */
  async ensure(names: Iterable<string>): Promise<void> {
    const missing = [...new Set(names)].filter((name) => !this.ids.has(name));
    if (missing.length === 0) return;
    const json = JSON.stringify(missing);
    const [, found] = await this.d1.batch<{ id: number; name: string }>([
      this.d1
        .prepare(
          `INSERT INTO tags (org_id, name, priority)
           SELECT ?1, j.value, (SELECT COALESCE(MAX(priority), 0) FROM tags WHERE org_id = ?1) + j.key + 1
           FROM json_each(?2) j WHERE true
           ON CONFLICT (org_id, name) DO NOTHING`,
        )
        .bind(this.orgId, json),
      this.d1.prepare('SELECT id, name FROM tags WHERE org_id = ?1 AND name IN (SELECT value FROM json_each(?2))').bind(this.orgId, json),
    ]);
    for (const row of found.results) this.ids.set(row.name, row.id);
  }
}

/**
 * The options of some fields (?1 the organisation, ?2 the field ids as JSON). json_each comes first (SQLite never
 * reorders a CROSS JOIN): with statistics it otherwise scans field_options (test/worker/sending/plans-with-statistics.test.ts).
 */
export const OPTIONS_OF_FIELDS_SQL =
  'SELECT o.id, o.field_id, o.value FROM json_each(?2) j CROSS JOIN field_options o WHERE o.field_id = j.value AND o.org_id = ?1';

/** Option value -> id per select/multiselect field, loaded once and grown as unknown values appear. */
export class OptionIds {
  private readonly byField = new Map<number, Map<string, number>>();

  constructor(
    private readonly d1: D1Database,
    private readonly orgId: number,
  ) {}

  /** Loads the current options of these fields. */
  async load(fields: FieldMeta[]): Promise<void> {
    const ids = fields.filter((f) => f.type === 'select' || f.type === 'multiselect').map((f) => f.id);
    for (const id of ids) this.byField.set(id, new Map());
    if (ids.length === 0) return;
    const rows = await this.d1.prepare(OPTIONS_OF_FIELDS_SQL).bind(this.orgId, JSON.stringify(ids)).all<{ id: number; field_id: number; value: string }>();
    for (const row of rows.results) this.byField.get(row.field_id)?.set(row.value, row.id);
  }

  get(fieldId: number, value: string): number | undefined {
    return this.byField.get(fieldId)?.get(value);
  }

  has(fieldId: number, value: string): boolean {
    return this.byField.get(fieldId)?.has(value) ?? false;
  }

  /** How many options the field has now. */
  count(fieldId: number): number {
    return this.byField.get(fieldId)?.size ?? 0;
  }

  /** Creates the missing values of each field (appended to its option order) and records their ids. */
  async ensure(wanted: Map<number, string[]>): Promise<void> {
    const statements: D1PreparedStatement[] = [];
    const asked: { fieldId: number; index: number }[] = [];
    for (const [fieldId, values] of wanted) {
      const missing = values.filter((v) => !this.has(fieldId, v));
      if (missing.length === 0) continue;
      const json = JSON.stringify(missing);
      statements.push(
        this.d1
          .prepare(
            `INSERT INTO field_options (org_id, field_id, value, position)
             SELECT ?1, ?2, j.value, (SELECT COALESCE(MAX(position), -1) FROM field_options WHERE field_id = ?2) + j.key + 1
             FROM json_each(?3) j WHERE true
             ON CONFLICT (field_id, value) DO NOTHING`,
          )
          .bind(this.orgId, fieldId, json),
        this.d1
          .prepare('SELECT id, value FROM field_options WHERE +org_id = ?1 AND field_id = ?2 AND value IN (SELECT value FROM json_each(?3))')
          .bind(this.orgId, fieldId, json),
      );
      asked.push({ fieldId, index: statements.length - 1 });
    }
    if (statements.length === 0) return;
    const results = await this.d1.batch<{ id: number; value: string }>(statements);
    for (const { fieldId, index } of asked) {
      const map = this.byField.get(fieldId) ?? new Map<string, number>();
      this.byField.set(fieldId, map);
      for (const row of results[index].results) map.set(row.value, row.id);
    }
  }
}
