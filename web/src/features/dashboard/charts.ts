import { CategoryScale, Chart, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';

// chart.js, with only the pieces the dashboard's line charts use (tree-shaken: no auto registration).
Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Tooltip, Legend, Filler);

/** Series colours readable on the light and the dark scheme. */
export const SERIES = ['#228be6', '#12b886', '#fd7e14', '#be4bdb'] as const;

/** Past this a percentage says nothing (a week before of almost nothing): the change is shown as a number instead. */
export const PERCENT_SHOWN_UP_TO = 999;

export type WeekChange = { kind: 'new' } | { kind: 'percent'; value: number } | { kind: 'absolute'; value: number };

/**
 * The week's change against the week before: in whole percent; as the difference itself when the percentage would
 * pass PERCENT_SHOWN_UP_TO; "new" when there is nothing to compare with.
 */
export function weekChange(week: number, previous: number): WeekChange {
  if (previous === 0) return week === 0 ? { kind: 'percent', value: 0 } : { kind: 'new' };
  const percent = Math.round(((week - previous) / previous) * 100);
  return Math.abs(percent) > PERCENT_SHOWN_UP_TO ? { kind: 'absolute', value: week - previous } : { kind: 'percent', value: percent };
}
