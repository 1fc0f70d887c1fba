import type { imports } from '../../db/schema';
import type { CsvDelimiter, CsvEncoding } from '../../shared/csv-scanner';
import type { Import, ImportMappingEntry, ImportRejection, ImportStatus, ImportSummary } from '../../shared/contracts/import';

type ImportRow = typeof imports.$inferSelect;

/** An imports row as the API shows it; `withRejections` is false for list pages (the list can be long). */
export function presentImport(row: ImportRow, withRejections: boolean): Import {
  return {
    ...summarizeImport(row),
    mapping: row.mapping as ImportMappingEntry[],
    tag_ids: (row.tagIds as number[] | null) ?? [],
    subscription_ids: (row.subscriptionIds as number[] | null) ?? [],
    rejections: withRejections ? ((row.rejections as ImportRejection[] | null) ?? []) : null,
  };
}

/** The import as live events carry it: counts and status, without the mapping, tags and rejection list. */
export function summarizeImport(row: ImportRow): ImportSummary {
  return {
    id: row.id,
    file_name: row.fileName,
    file_size: row.fileSize,
    status: row.status as ImportStatus,
    skip_first_line: row.skipFirstLine,
    delimiter: row.delimiter as CsvDelimiter,
    encoding: row.encoding as CsvEncoding,
    created_count: row.createdCount,
    updated_count: row.updatedCount,
    rejected_count: row.rejectedCount,
    processed_bytes: row.cursorBytes,
    processed_rows: row.cursorRow,
    error: row.error,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    finished_at: row.finishedAt,
  };
}
