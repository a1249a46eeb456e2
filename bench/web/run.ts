// Web benchmark (issue 6): initial JS and CSS of the storefront route (gzip) and Lighthouse mobile
// runs (BENCH_WEB_RUNS of each page, default 3) of the landing, storefront and product pages,
// against the real stack that the e2e tests use (web/e2e/support/start-stack.ts: the built app
// served by the API, seeded store).
// Run from the repo root: `bun run bench:web`. Writes its section of docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readStackInfo } from '@store/stack/stack-info';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { writeBenchmarkSection } from '../docs-section.ts';

const root = resolve(import.meta.dir, '../..');
// Note: set before stack-info.ts is read, so this run's stack file is the one read back.
process.env.E2E_STACK_FILE ??= join(tmpdir(), `bench-web-stack-${process.pid}.json`);
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
];

// Note: ports of their own, so the benchmark can run while an e2e run holds the default ones.
const BENCH_PORTS = {
  E2E_POSTGRES_PORT: '55533',
  E2E_ANVIL_PORT: '18645',
  E2E_INDEXER_PORT: '42269',
  E2E_API_PORT: '13100',
  E2E_PORT: '14273',
  E2E_STACK_FILE: process.env.E2E_STACK_FILE,
};

/** Starts the e2e stack and resolves once it says it is ready. */
function startStack() {
  const child = spawn(process.execPath, [join(root, 'web/e2e/support/start-stack.ts')], {
    cwd: join(root, 'web'),
    env: { ...process.env, ...BENCH_PORTS },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolveReady, reject) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (chunk.includes('stack ready')) resolveReady();
    });
    child.once('exit', (code) => reject(new Error(`stack exited (${code}) before it was ready`)));
  });
  const stop = () =>
    new Promise<void>((resolveStop) => {
      if (child.exitCode !== null) return resolveStop();
      child.once('exit', () => resolveStop());
      child.kill('SIGTERM');
    });
  return { ready, stop };
}

interface Bytes {
  files: number;
  raw: number;
  gzip: number;
}

/**
 * JS and CSS a first visit to `url` downloads, raw and gzipped: `js` and `css` are what was asked
 * for before `visibleText` showed (what the first view needs), `laterJs` what the page loaded after
 * it, until the network was idle (the storefront's IndexedDB module).
 */
async function initialAssets(
  url: string,
  visibleText: string,
): Promise<{ js: Bytes; css: Bytes; laterJs: Bytes }> {
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    let shown = false;
    const bodies: Promise<{ type: 'js' | 'css' | 'laterJs'; body: Buffer } | undefined>[] = [];
    page.on('request', (request) => {
      const type = request.resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      const kind = type === 'stylesheet' ? 'css' : shown ? 'laterJs' : 'js';
      bodies.push(
        request.response().then(
          async (response) => (response ? { type: kind, body: await response.body() } : undefined),
          () => undefined,
        ),
      );
    });
    await page.goto(url);
    await page.getByText(visibleText).first().waitFor({ state: 'visible', timeout: 60_000 });
    shown = true;
    await page.waitForLoadState('networkidle');
    const totals = {
      js: { files: 0, raw: 0, gzip: 0 },
      css: { files: 0, raw: 0, gzip: 0 },
      laterJs: { files: 0, raw: 0, gzip: 0 },
    };
    for (const asset of await Promise.all(bodies)) {
      if (!asset) continue;
      const total = totals[asset.type];
      total.files += 1;
      total.raw += asset.body.length;
      total.gzip += gzipSync(asset.body, { level: 9 }).length;
    }
    return totals;
  } finally {
    await browser.close();
  }
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Lighthouse's code when the run failed (its scores are then 0 and its times missing). */
  error?: string;
}

/** One Lighthouse run with its default mobile settings (Moto G Power, simulated slow 4G). */
async function lighthouseRun(url: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
    const { categories, audits } = result.lhr;
    const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100);
    const value = (key: string) => audits[key]?.numericValue ?? Number.NaN;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      fcpMs: value('first-contentful-paint'),
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      speedIndexMs: value('speed-index'),
      ...(result.lhr.runtimeError ? { error: result.lhr.runtimeError.code } : {}),
    };
  } finally {
    chrome.kill();
  }
}

/** Lighthouse runs of each page: the table gives the median, with every run's score and load. */
const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 3));

/**
 * Before each Lighthouse run, waits (up to BENCH_WEB_QUIET_WAIT_S seconds, default 90) for the
 * 1-minute load average to fall below BENCH_WEB_QUIET_LOAD (default 2): Lighthouse derives its
 * simulated times from the trace, so other work on the machine shows up in the scores.
 */
const QUIET_LOAD = Number(process.env.BENCH_WEB_QUIET_LOAD ?? 2);
const QUIET_WAIT_MS = Number(process.env.BENCH_WEB_QUIET_WAIT_S ?? 90) * 1000;

/** The 1-minute load average once it is below QUIET_LOAD, or when QUIET_WAIT_MS have passed. */
async function quietLoad(): Promise<number> {
  const until = Date.now() + QUIET_WAIT_MS;
  let load = loadavg()[0] ?? Number.NaN;
  while (load >= QUIET_LOAD && Date.now() < until) {
    await Bun.sleep(5000);
    load = loadavg()[0] ?? Number.NaN;
  }
  return load;
}

interface LighthouseRun {
  figures: LighthouseFigures;
  /** The machine's 1-minute load average when the run started. */
  load: number;
}

/** The run with the median performance score (the lower one of the middle two). */
function medianRun(runs: LighthouseRun[]): LighthouseRun {
  // Note: a failed run (Lighthouse's runtime error) has no figures to rank; it is listed only.
  const measured = runs.filter((run) => !run.figures.error);
  const sorted = (measured.length > 0 ? measured : runs).sort(
    (a, b) => a.figures.performance - b.figures.performance,
  );
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('no Lighthouse run');
  return median;
}

/** A Markdown table with its columns padded, as the repository's formatter (Biome) writes one. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((cell, i) =>
    Math.max(3, cell.length, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const ms = (value: number) => `${Math.round(value)} ms`;

const loadAtStart = loadavg()
  .map((n) => n.toFixed(2))
  .join(', ');
const stack = startStack();
try {
  await stack.ready;
  const info = readStackInfo();
  const product = info.products[0];
  const pages = [
    ['landing', `${info.webUrl}/`],
    ['storefront', `${info.webUrl}/store/${info.store.slug}`],
    ['product', `${info.webUrl}/store/${info.store.slug}/product/${product?.id}`],
  ] as const;
  const assets = await initialAssets(pages[1][1], product?.title ?? info.store.name);
  const runs: [string, LighthouseRun[]][] = [];
  for (const [name, url] of pages) {
    const pageRuns: LighthouseRun[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const load = await quietLoad();
      pageRuns.push({ load, figures: await lighthouseRun(url) });
    }
    runs.push([name, pageRuns]);
  }

  const lines = [
    '## Web (`bench/web`)',
    '',
    'Command: `bun run bench:web`.',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)}: the built app served by the real API (text gzipped) with a`,
    `seeded store, on this project's machine (${cpus().length} cores, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Debian's Chromium.`,
    '',
    '### Initial JS and CSS of the storefront route (first visit, no service worker)',
    '',
    'Initial: every script and style the page asked for before its first product was on screen;',
    'after: what it loaded later, until the network was idle (the IndexedDB module, Dexie, which',
    'the storefront loads once its content is shown).',
    '',
    ...table(
      ['asset', 'files', 'raw', 'gzip -9'],
      (
        [
          ['JS, initial', assets.js],
          ['CSS, initial', assets.css],
          ['JS, after the first view', assets.laterJs],
        ] as const
      ).map(([name, bytes]) => [name, String(bytes.files), kb(bytes.raw), kb(bytes.gzip)]),
    ),
    '',
    '### Lighthouse 13, default mobile settings (simulated slow 4G, 4x CPU slowdown)',
    '',
    `Each page ran ${RUNS} time${RUNS === 1 ? '' : 's'}: the row is the median run by performance score (of those that did not fail); "runs" gives`,
    "every run's score with the machine's 1-minute load average when it started (each run waited up",
    `to ${QUIET_WAIT_MS / 1000} s for it to fall below ${QUIET_LOAD}).`,
    '',
    ...table(
      [
        'page',
        'performance',
        'runs (score @ load)',
        'accessibility',
        'best practices',
        'FCP',
        'LCP',
        'TBT',
        'CLS',
        'Speed Index',
      ],
      runs.map(([name, pageRuns]) => {
        const r = medianRun(pageRuns).figures;
        const all = pageRuns
          .map(
            (run) =>
              `${run.figures.error ? `failed (${run.figures.error})` : run.figures.performance} @ ${run.load.toFixed(1)}`,
          )
          .join(', ');
        return [
          name,
          String(r.performance),
          all,
          String(r.accessibility),
          String(r.bestPractices),
          ms(r.fcpMs),
          ms(r.lcpMs),
          ms(r.tbtMs),
          r.cls.toFixed(3),
          ms(r.speedIndexMs),
        ];
      }),
    ),
    '',
    'Note: the API sends text files gzipped to browsers that accept it, so the gzip column is',
    'about what travels (the API compresses at its default level, a little less than gzip -9).',
    `Load average at the start: ${loadAtStart}. Lighthouse simulates the network and the CPU from`,
    'the trace, so a busy machine lowers its scores (the same build scored 71-87 on the storefront',
    'with four other test runs going).',
    '',
  ];
  const report = lines.join('\n');
  await writeBenchmarkSection('web', report);
  console.log(report);
} finally {
  await stack.stop();
}
