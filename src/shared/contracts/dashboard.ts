// GET /dashboard: the organisation's usage by UTC day, read from the counters kept as things happen
// (src/modules/stats), never from the messages or events themselves.

/** How many days the answer covers: this week and the week before, for the change against it. */
export const DASHBOARD_DAYS = 14;

export interface DashboardFigures {
  requests: number;
  request_bytes: number;
  emails_sent: number;
  sms_sent: number;
  messages_failed: number;
  /** Every open hit (the tracking image loaded), and those judged a person. */
  opens: number;
  human_opens: number;
  clicks: number;
  human_clicks: number;
  /**
   * Recipients who opened that day (first opened: a click counts as an open), all and judged a person: the
   * dashboard's "opens", the same definition as a broadcast's; and the same for clicks. 0 before Nov 26, 2026.
   */
  opened: number;
  human_opened: number;
  clicked: number;
  human_clicked: number;
  unsubscribes: number;
  /** Emails that bounced (hard: the address does not exist) and that were reported as spam, by the day it came back. */
  bounces: number;
  complaints: number;
  contacts_created: number;
  contacts_deleted: number;
}

export interface DashboardDay extends DashboardFigures {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Contacts at the end of the day. */
  contacts_total: number;
  /** The organisation's share of D1 and its R2 bytes at the end of the day (data: null before the first measurement). */
  data_bytes: number | null;
  file_bytes: number;
}

export interface Dashboard {
  /** The last DASHBOARD_DAYS days, oldest first, today last; days without activity are zeros. */
  days: DashboardDay[];
  /** Sums of the last seven days and of the seven before them. */
  week: DashboardFigures;
  previous_week: DashboardFigures;
  contacts_total: number;
  /** Volumes now: R2 bytes (kept on every upload and delete) and the D1 share (measured hourly, at data_measured_at). */
  file_bytes: number;
  data_bytes: number | null;
  data_measured_at: string | null;
}
