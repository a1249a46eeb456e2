// Figures of the detection benchmark, for its section of docs/benchmarks.md.
import { cpus, loadavg, totalmem } from 'node:os';

/** p50, p95 and max of a list of milliseconds. */
export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

/** Nearest-rank percentiles of `values`. */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return { n: sorted.length, p50: rank(0.5) ?? 0, p95: rank(0.95) ?? 0, max: sorted.at(-1) ?? 0 };
}

/** One row of the results table. */
export interface ResultRow {
  scenario: string;
  detect: Summary;
  afterReceipt: Summary;
}

/** The machine the figures come from, and how busy it was when the run started. */
export async function machine(load = loadavg()[0] ?? 0): Promise<string> {
  const nproc = (await Bun.$`nproc`.quiet().nothrow()).stdout.toString().trim();
  const memory = (totalmem() / 2 ** 30).toFixed(1);
  const day = new Date().toISOString().slice(0, 10);
  return (
    `${nproc} cores (\`nproc\`), ${cpus()[0]?.model ?? 'unknown CPU'}, ${memory} GB RAM; ` +
    `Bun ${Bun.version}, embedded Postgres 18 (\`fsync=off\`); measured ${day}, load average ` +
    `${load.toFixed(2)} at the start`
  );
}

const ms = (value: number) => `${Math.round(value)} ms`;

/** A Markdown table with padded columns, as Biome formats it (docs/ is checked by Biome). */
export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${widths.map((w, i) => (cells[i] ?? '').padEnd(w)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The results as a Markdown table. */
export function table(rows: readonly ResultRow[]): string {
  const header = [
    'scenario',
    'payments',
    'block mined → detected p50',
    'p95',
    'max',
    'receipt → detected p50',
  ];
  return markdownTable(
    header,
    rows.map(({ scenario, detect, afterReceipt }) => [
      scenario,
      String(detect.n),
      ms(detect.p50),
      ms(detect.p95),
      ms(detect.max),
      ms(afterReceipt.p50),
    ]),
  );
}
