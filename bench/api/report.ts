// The benchmark's report: a console table and its section of docs/benchmarks.md.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { LoadOptions, LoadResult } from './load.ts';

/** What the figures were measured on. */
export interface Machine {
  cores: number;
  cpu: string;
  memoryGb: string;
  system: string;
  bun: string;
  postgres: string;
  date: string;
  /** One-minute load average when the run started: other work on the machine skews the figures. */
  loadAtStart: string;
}

/** Describes this machine (`nproc`, the CPU model of /proc/cpuinfo) and the software versions. */
export function describeMachine(postgresVersion: string, loadAtStart: number): Machine {
  const cpuinfo = (() => {
    try {
      return readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      return '';
    }
  })();
  return {
    cores: os.availableParallelism(),
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown',
    memoryGb: (os.totalmem() / 1024 ** 3).toFixed(1),
    system: `${os.type()} ${os.release()}`,
    bun: Bun.version,
    postgres: postgresVersion,
    date: new Date().toISOString().slice(0, 10),
    loadAtStart: loadAtStart.toFixed(2),
  };
}

const HEADER = [
  'workload',
  'req/s',
  'p50 ms',
  'p97.5 ms',
  'p99 ms',
  'total',
  'failed',
  'CPU ms/req: API',
  'Postgres',
  'load gen.',
];
const row = (r: LoadResult) => [
  r.name,
  Math.round(r.requestsPerSecond).toLocaleString('en-US'),
  r.p50.toFixed(1),
  r.p97_5.toFixed(1),
  r.p99.toFixed(1),
  r.total.toLocaleString('en-US'),
  String(r.failures),
  r.cpuMs?.api === undefined ? '-' : r.cpuMs.api.toFixed(2),
  r.cpuMs === undefined ? '-' : r.cpuMs.postgres.toFixed(2),
  r.cpuMs === undefined ? '-' : r.cpuMs.bench.toFixed(2),
];

/** Column widths of a table of cells. */
function widthsOf(rows: string[][]): number[] {
  return HEADER.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
}
const pad = (cell: string, width: number, column: number) =>
  column === 0 ? cell.padEnd(width) : cell.padStart(width);

/** A plain-text table for the console. */
export function consoleTable(results: LoadResult[]): string {
  const rows = [HEADER, ...results.map(row)];
  const widths = widthsOf(rows);
  return rows.map((r) => r.map((cell, i) => pad(cell, widths[i] ?? 0, i)).join('  ')).join('\n');
}

/** A markdown table padded the way Biome formats markdown (so the docs stay lint-clean). */
function markdownTable(results: LoadResult[]): string {
  const rows = [HEADER, ...results.map(row)];
  const widths = widthsOf(rows);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rule = widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`));
  const [header, ...body] = rows.map((r) => r.map((cell, i) => pad(cell, widths[i] ?? 0, i)));
  return [line(header ?? []), line(rule), ...body.map(line)].join('\n');
}

/** The markdown section of this benchmark. */
export function markdownSection(
  results: LoadResult[],
  machine: Machine,
  options: LoadOptions & { processes: number; loadAtEnd: number },
  command: string,
): string {
  const table = markdownTable(results);
  const [raw, ...api] = results;
  const ratio = raw && api[0] ? (api[0].requestsPerSecond / raw.requestsPerSecond) * 100 : 0;
  const processes =
    options.processes === 1
      ? 'one Bun process'
      : `${options.processes} Bun processes, the connections split evenly among them (each latency figure is the worst of the processes')`;
  return `## API (\`bench/api\`)

Command: \`${command}\` (${options.connections} concurrent connections, ${options.durationSeconds} s a workload, after 2 s of warm-up each; the API as ${processes}).

Machine: ${machine.cores} cores (\`nproc\`), ${machine.cpu}, ${machine.memoryGb} GB RAM, ${machine.system};
Bun ${machine.bun}, Postgres ${machine.postgres} (embedded, \`fsync=off\` as in the tests); measured ${machine.date},
load average ${machine.loadAtStart} at the start and ${options.loadAtEnd.toFixed(2)} at the end (other work on the machine lowers the figures).

${table}

How to read it:

- The first row is the ceiling: the same Postgres server taking single-row inserts from
  ${options.connections} clients with nothing in between. \`POST /api/orders\` reached ${ratio.toFixed(1)}% of it in this run.
  An order with an Idempotency-Key (and no tracked stock) is two prepared statements: both
  rate limits, whether the key was used and the store's settings with the ordered products;
  then the key with its response and the order in one insert; plus validation, pricing and
  JSON in one JavaScript thread.
- "CPU ms/req" is the CPU time (user + system, from /proc) each part used per request: the API
  process(es), the Postgres server's processes, and the benchmark process (autocannon or the
  insert clients). On shared cores it is steadier than the rates: the ratio to the raw inserts
  cannot exceed the ratio of the CPU each costs when both fill the same cores.
- Every \`POST /api/orders\` carries a fresh \`Idempotency-Key\`, so no request is a replay; the
  body is a valid one-line order of the demo store (untracked stock) and every response was
  checked to be 2xx (\`failed\` counts non-2xx responses, errors and timeouts).
- The API, Postgres and the load generator share the same ${machine.cores} cores, so
  these figures are a floor for a deployment where they run apart.`;
}
