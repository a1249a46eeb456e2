// `bun run test`: the whole suite (shared and web unit tests, API and integration tests on a real
// Postgres and chain, browser end-to-end tests), ending with one line `N passed, N failed`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dir, '..');
const resolveFrom = (pkgDir: string, id: string) =>
  createRequire(join(root, pkgDir, 'package.json')).resolve(id);
const vitest = join(dirname(resolveFrom('shared', 'vitest/package.json')), 'vitest.mjs');
const playwright = join(dirname(resolveFrom('web', '@playwright/test/package.json')), 'cli.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Counts {
  passed: number;
  failed: number;
}
interface Step {
  name: string;
  cwd: string;
  command: string[];
  env?: Record<string, string>;
  /** Reads the counts from the step's report file or output; undefined when there are none. */
  counts(output: string, reportFile: string): Promise<Counts | undefined>;
  before?: () => Promise<void>;
}

const readJson = async (file: string) =>
  JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as Record<string, unknown> | null;

const vitestCounts = async (_: string, file: string) => {
  const report = (await readJson(file)) as {
    numPassedTests: number;
    numFailedTests: number;
  } | null;
  return report ? { passed: report.numPassedTests, failed: report.numFailedTests } : undefined;
};

const vitestStep = (name: string, dir: string): Step => ({
  name,
  cwd: join(root, dir),
  command: [
    'node',
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=REPORT',
  ],
  counts: vitestCounts,
});

const tsc = join(dirname(resolveFrom('shared', 'typescript/package.json')), 'bin/tsc');
const biome = join(root, 'node_modules/.bin/biome');
/** A check that is one test: it passes when the command exits 0. */
const checkStep = (name: string, command: string[]): Step => ({
  name,
  cwd: root,
  command,
  counts: async () => undefined,
});

const madge = join(root, 'node_modules/.bin/madge');
/** The sources the import-cycle check reads (tests and scripts apart). */
const SOURCE_DIRS = ['api/src', 'shared/src', 'stack/src', 'indexer/src', 'web/src'];

const steps: Step[] = [
  checkStep('lint and format (Biome)', [biome, 'check', '.']),
  checkStep('no import cycles (madge)', [
    madge,
    '--circular',
    '--no-spinner',
    '--extensions',
    'ts,tsx',
    '--ts-config',
    'scripts/tsconfig.madge.json',
    ...SOURCE_DIRS,
  ]),
  checkStep('no relative imports between workspaces', [
    process.execPath,
    'scripts/check-workspace-imports.ts',
  ]),
  checkStep('API layers (payments below the worker and the HTTP side)', [
    process.execPath,
    'scripts/check-api-layers.ts',
  ]),
  checkStep('docs citations exist (no cited section missing)', [
    process.execPath,
    'scripts/check-doc-citations.ts',
  ]),
  ...['shared', 'api', 'stack', 'indexer', 'web', 'web/tsconfig.stack.json'].map((project) =>
    checkStep(`typecheck ${project} (tsc)`, ['node', tsc, '-p', project]),
  ),
  vitestStep('shared: unit tests (vitest)', 'shared'),
  vitestStep('web: unit tests (vitest)', 'web'),
  {
    name: 'api: API and integration tests (bun test, real Postgres and chain)',
    cwd: join(root, 'api'),
    command: [process.execPath, 'test', '--timeout', '120000', './src', './test'],
    counts: async (output) => {
      const pass = output.match(/^\s*(\d+) pass$/m);
      const fail = output.match(/^\s*(\d+) fail$/m);
      return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : undefined;
    },
  },
  {
    name: 'web: end-to-end tests (Playwright, Debian chromium)',
    cwd: join(root, 'web'),
    command: ['node', playwright, 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: 'REPORT' },
    before: ensureChromium,
    counts: async (_, file) => {
      const report = (await readJson(file)) as {
        stats: { expected: number; unexpected: number; flaky: number };
      } | null;
      if (!report) return undefined;
      const { expected, unexpected, flaky } = report.stats;
      return { passed: expected + flaky, failed: unexpected };
    },
  },
];

/** Installs Debian's chromium when it is missing (Playwright's own download cannot work here). */
async function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.log(`${CHROMIUM} is missing: installing Debian's chromium`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  await run([...sudo, 'apt-get', 'update'], root);
  await run([...sudo, 'apt-get', 'install', '-y', '--no-install-recommends', 'chromium'], root, {
    DEBIAN_FRONTEND: 'noninteractive',
  });
}

/** Runs a command with inherited-looking output, returning its exit code and captured output. */
function run(command: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; output: string }>((done) => {
    const [bin, ...args] = command as [string, ...string[]];
    const child = spawn(bin, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on('error', (error) => done({ code: 127, output: `${output}\n${error.message}` }));
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}

const reportDir = await mkdtemp(join(tmpdir(), 'test-reports-'));
const total: Counts = { passed: 0, failed: 0 };
const lines: string[] = [];
for (const [i, step] of steps.entries()) {
  console.log(`\n━━ ${step.name}\n`);
  const reportFile = join(reportDir, `step-${i}.json`);
  const swap = (s: string) => s.replace('REPORT', reportFile);
  let code: number;
  let output = '';
  try {
    await step.before?.();
    ({ code, output } = await run(
      step.command.map(swap),
      step.cwd,
      Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, swap(v)])),
    ));
  } catch (error) {
    code = 1;
    console.error(error);
  }
  const counts = (await step.counts(output, reportFile)) ?? {
    passed: code === 0 ? 1 : 0,
    failed: 0,
  };
  // Note: a step that fails without reporting a failed test (a crash, a broken set-up) still fails.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  total.passed += counts.passed;
  total.failed += counts.failed;
  lines.push(`  ${step.name}: ${counts.passed} passed, ${counts.failed} failed`);
}
await rm(reportDir, { recursive: true, force: true });
console.log(`\n━━ Summary\n${lines.join('\n')}\n`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed === 0 ? 0 : 1);
