// GET /message-archive: where messages past the organisation's retention went (monthly archives in R2), and
// GET /message-archive/{YYYY-MM}: one month's archive, gzip NDJSON, one line per message with its tracking events.

export interface ArchiveMonth {
  /** YYYY-MM of the messages' creation. */
  month: string;
  messages: number;
  /** Compressed size of the month's archive. */
  bytes: number;
}

export interface MessageArchiveOverview {
  /** Messages older than this many days are moved out of the message list into the archives. */
  retention_days: number;
  /** Newest month first. */
  months: ArchiveMonth[];
}

export const ARCHIVE_MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
