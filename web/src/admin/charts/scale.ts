// The arithmetic of the admin's bar charts: a "nice" y scale (1, 2 or 5 times a power of ten),
// which days get an x label for the width at hand, and short texts for axes. No floats touch money
// beyond drawing: bar heights are proportions of USDC amounts turned into numbers.

/** A y scale: its top and the values of its grid lines (0 first). */
export interface YScale {
  max: number;
  ticks: number[];
}

/** A scale from 0 to a nice value at or above `highest`, with `count` steps (0 when empty: 0..1). */
export function niceScale(highest: number, count = 3): YScale {
  if (!(highest > 0)) return { max: 1, ticks: [0, 1] };
  const rough = highest / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const steps = Math.ceil(highest / step - 1e-9);
  const ticks = Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { max: ticks.at(-1) ?? 1, ticks };
}

/** Indexes of the days to label: about one per `minGap` pixels, always the last day. */
export function labelledDays(count: number, width: number, minGap = 56): number[] {
  if (count === 0) return [];
  const every = Math.max(1, Math.ceil((count * minGap) / Math.max(width, 1)));
  const picked = new Set<number>();
  for (let i = count - 1; i >= 0; i -= every) picked.add(i);
  return [...picked].sort((a, b) => a - b);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 3" for "2026-11-03" (UTC days: no time zone moves them). */
export function shortDay(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${date}`;
}

/** An axis value: 1,250 / 12.5 / 1.2k / 3.4M. */
export function shortNumber(value: number): string {
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 10_000) return `${trim(value / 1000)}k`;
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

const trim = (value: number) => value.toFixed(1).replace(/\.0$/, '');
