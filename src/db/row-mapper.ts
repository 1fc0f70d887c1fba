import { getTableColumns, type InferSelectModel, type Table } from 'drizzle-orm';

// Rows that come back from a raw statement (D1 batch results: snake_case keys, 0/1 booleans, JSON as text) read
// into drizzle's shape for the table, by the table's own columns: their SQL names and their driver mappings. One
// mapper per table, derived, so a column added to the schema is read without anyone listing it again.

/** A function reading raw rows of `table` into the shape `db.select().from(table)` answers. */
export function rowMapper<T extends Table>(table: T): (raw: Record<string, unknown>) => InferSelectModel<T> {
  const columns = Object.entries(getTableColumns(table));
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    // The keys and their mapped values are exactly the table's select model, built column by column above.
    return row as InferSelectModel<T>;
  };
}
