import { CategoryScale, Chart, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';

// chart.js, with only the pieces the dashboard's line charts use (tree-shaken: no auto registration).
Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Tooltip, Legend, Filler);

/** Series colours readable on the light and the dark scheme. */
export const SERIES = ['#228be6', '#12b886', '#fd7e14', '#be4bdb'] as const;

/** The week's change against the week before, in whole percent; null when there is nothing to compare with. */
export function weekChange(week: number, previous: number): number | null {
  if (previous === 0) return week === 0 ? 0 : null;
  return Math.round(((week - previous) / previous) * 100);
}
