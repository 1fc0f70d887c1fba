import { screen } from '@testing-library/react';
import type { Dashboard, DashboardDay, DashboardFigures } from '@shared/contracts/dashboard';
import { describe, expect, it, vi } from 'vitest';
import { weekChange } from '../../../web/src/features/dashboard/charts';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// The signed-in home's charts against a fake API: the week's figures with the change against the week before,
// people beside all hits, the friendly empty state. jsdom has no canvas, so the chart itself is replaced by a list
// of what it was handed (labels and series): the figures and wiring are under test, not chart.js's drawing.
vi.mock('react-chartjs-2', () => ({
  Line: ({ data }: { data: { labels: string[]; datasets: { label: string; data: number[] }[] } }) => (
    <ul data-testid="chart">
      {data.datasets.map((d) => (
        <li key={d.label} data-series={d.label}>
          {d.data.join(',')}
        </li>
      ))}
    </ul>
  ),
}));

const ZERO: DashboardFigures = {
  requests: 0,
  request_bytes: 0,
  emails_sent: 0,
  sms_sent: 0,
  messages_failed: 0,
  opens: 0,
  human_opens: 0,
  clicks: 0,
  human_clicks: 0,
  opened: 0,
  human_opened: 0,
  bounces: 0,
  complaints: 0,
  clicked: 0,
  human_clicked: 0,
  unsubscribes: 0,
  contacts_created: 0,
  contacts_deleted: 0,
};

function dashboard(days: Partial<DashboardDay>[]): Dashboard {
  const full = Array.from(
    { length: 14 },
    (_, i): DashboardDay => ({ ...ZERO, day: `2026-11-${String(i + 10).padStart(2, '0')}`, contacts_total: 0, data_bytes: null, file_bytes: 0, ...days[i] }),
  );
  const sum = (list: DashboardDay[]) =>
    Object.fromEntries(
      Object.keys(ZERO).map((k) => [k, list.reduce((s, d) => s + (d[k as keyof DashboardFigures] as number), 0)]),
    ) as unknown as DashboardFigures;
  const last = full[13];
  return {
    days: full,
    week: sum(full.slice(7)),
    previous_week: sum(full.slice(0, 7)),
    contacts_total: last.contacts_total,
    file_bytes: last.file_bytes,
    data_bytes: last.data_bytes,
    data_measured_at: null,
  };
}

function dashboardApi(answers: Dashboard[]) {
  const base = fakeApi();
  let served = 0;
  const handle = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc' || path !== '/dashboard') return null;
    return json(200, { data: answers[Math.min(served++, answers.length - 1)] });
  };
  return mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  ) as unknown as ReturnType<typeof fakeApi>;
}

describe('the dashboard', () => {
  it("shows the week's figures beside the week before, people beside all: recipients who opened, not every hit", async () => {
    const days: Partial<DashboardDay>[] = [];
    days[2] = { emails_sent: 50, human_opened: 10, opened: 14, human_opens: 40, opens: 90, contacts_total: 20 };
    days[6] = { contacts_total: 20 };
    days[10] = {
      emails_sent: 60,
      sms_sent: 15,
      human_opened: 12,
      opened: 30,
      human_opens: 50,
      opens: 99,
      human_clicked: 4,
      clicked: 9,
      human_clicks: 7,
      clicks: 20,
      unsubscribes: 2,
      contacts_total: 25,
    };
    days[13] = { contacts_total: 25, file_bytes: 3_000_000, data_bytes: 12_500_000 };
    days[6] = { ...days[6], file_bytes: 2_000_000, data_bytes: 10_000_000 };
    renderApp(dashboardApi([dashboard(days)]), { path: '/', signedIn: true });
    expect((await screen.findByTestId('dashboard-week-messages', undefined, { timeout: 3000 })).textContent).toBe('75');
    expect(screen.getByTestId('dashboard-chart-messages').textContent).toContain('+50% vs last week');
    expect(screen.getByTestId('dashboard-week-opens').textContent).toBe('12');
    const opens = screen.getByTestId('dashboard-chart-opens');
    expect(opens.querySelector('[data-series="People"]')!.textContent).toBe('0,0,0,12,0,0,0');
    expect(opens.querySelector('[data-series="All"]')!.textContent).toBe('0,0,0,30,0,0,0');
    expect(screen.getByTestId('dashboard-week-clicks').textContent).toBe('4');
    expect(screen.getByTestId('dashboard-chart-clicks').textContent).toContain('new this week');
    expect(screen.getByTestId('dashboard-week-contacts').textContent).toBe('25');
    expect(screen.getByTestId('dashboard-chart-contacts').textContent).toContain('+25% vs last week');
    // Volumes are levels: today's megabytes against a week before.
    expect(screen.getByTestId('dashboard-week-files').textContent).toBe('3 MB');
    expect(screen.getByTestId('dashboard-chart-files').textContent).toContain('+50% vs last week');
    expect(screen.getByTestId('dashboard-week-data').textContent).toBe('12.5 MB');
    expect(screen.getByTestId('dashboard-chart-data').textContent).toContain('+25% vs last week');
  });

  it("shows the difference itself, in the language's number format, when the week before had almost nothing", async () => {
    const days: Partial<DashboardDay>[] = [];
    days[2] = { emails_sent: 1, contacts_total: 1 };
    days[6] = { contacts_total: 1 };
    days[10] = { emails_sent: 2081, contacts_total: 1 };
    days[13] = { contacts_total: 1 };
    renderApp(dashboardApi([dashboard(days)]), { path: '/', signedIn: true });
    expect((await screen.findByTestId('dashboard-change-messages', undefined, { timeout: 3000 })).textContent).toBe('+2,080 vs last week');
  });

  it('says data volume is not measured yet rather than showing zero', async () => {
    const days: Partial<DashboardDay>[] = [];
    days[13] = { contacts_total: 3 };
    renderApp(dashboardApi([dashboard(days)]), { path: '/', signedIn: true });
    expect((await screen.findByTestId('dashboard-week-data', undefined, { timeout: 3000 })).textContent).toBe('–');
    expect(screen.getByTestId('dashboard-chart-data').textContent).toContain('measured hourly, not yet');
    // No chart of zeros beside it: a note says when it will be measured.
    expect(screen.getByTestId('dashboard-pending-data').textContent).toContain('Measured within the hour');
    expect(screen.getByTestId('dashboard-chart-data').querySelector('[data-testid="chart"]')).toBeNull();
    expect(screen.getByTestId('dashboard-week-files').textContent).toBe('0 MB');
  });

  it('greets an empty organisation with a friendly state instead of empty axes', async () => {
    renderApp(dashboardApi([dashboard([])]), { path: '/', signedIn: true });
    expect((await screen.findByTestId('dashboard-empty', undefined, { timeout: 3000 })).textContent).toContain('Nothing to chart yet');
    expect(screen.queryByTestId('dashboard-charts')).toBeNull();
  });

  it('computes the change against the week before', () => {
    expect([weekChange(75, 50), weekChange(25, 50), weekChange(0, 0), weekChange(3, 0)]).toEqual([
      { kind: 'percent', value: 50 },
      { kind: 'percent', value: -50 },
      { kind: 'percent', value: 0 },
      { kind: 'new' },
    ]);
    // A week before of almost nothing: not "+208080%", the difference itself.
    expect(weekChange(2081, 1)).toEqual({ kind: 'absolute', value: 2080 });
    expect(weekChange(1000, 100)).toEqual({ kind: 'percent', value: 900 });
  });
});
