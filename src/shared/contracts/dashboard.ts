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
  opens: number;
  human_opens: number;
  clicks: number;
  human_clicks: number;
  unsubscribes: number;
  contacts_created: number;
  contacts_deleted: number;
}

export interface DashboardDay extends DashboardFigures {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Contacts at the end of the day. */
  contacts_total: number;
}

export interface Dashboard {
  /** The last DASHBOARD_DAYS days, oldest first, today last; days without activity are zeros. */
  days: DashboardDay[];
  /** Sums of the last seven days and of the seven before them. */
  week: DashboardFigures;
  previous_week: DashboardFigures;
  contacts_total: number;
}
