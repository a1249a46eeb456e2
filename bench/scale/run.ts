// Two of everything, the long run (issue 20): the test `api/test/two-of-everything.test.ts` (two
// API processes and two workers on one Postgres) with more payments and more background traffic.
// `bun bench/scale/run.ts [--payments 45] [--background 50]`. Prints the test's verdict and how
// long it took; every assertion (detected once, forwarded once on the chain, each webhook
// delivered once) is the test's own.
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '45' },
    background: { type: 'string', default: '50' },
  },
});
const api = resolve(import.meta.dir, '../../api');
const load = loadavg()[0] ?? 0;
const started = performance.now();
const child = Bun.spawn(
  [process.execPath, 'test', '--timeout', '900000', './test/two-of-everything.test.ts'],
  {
    cwd: api,
    env: { ...process.env, SCALE_PAYMENTS: args.payments, SCALE_BACKGROUND: args.background },
    stdout: 'inherit',
    stderr: 'inherit',
  },
);
const code = await child.exited;
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(
  `two of everything, ${args.payments} payments, ${args.background} background transfers a ` +
    `block: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s (load average ${load.toFixed(2)} ` +
    `at the start, ${(loadavg()[0] ?? 0).toFixed(2)} at the end)`,
);
process.exit(code ?? 1);
