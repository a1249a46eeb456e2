// `bun run start`: the product as its users get it, on embedded defaults. Builds the web app (when
// its sources changed since the last build) and starts Postgres, anvil with Circle's USDC, the
// indexer, the settlement worker and the API, which serves the built PWA (service worker, offline
// store, per-store install) on its own origin. No Vite server: `bun run dev` is for changing it.
// The API or the worker that exits on its own is started again after a backoff (as a deployment's
// `restart: unless-stopped` does); Ctrl-C or SIGTERM stops every child it started, by pid.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { takePortVariables } from '@store/stack/ports';
import { type Service, startService, superviseService } from '@store/stack/process';
import { type LocalStack, serviceEnvironments, startLocalStack } from '@store/stack/stack';
import {
  exitOnBusyPorts,
  type LocalMail,
  localMail,
  mailEnvironments,
  stackLog,
  stackPorts,
} from './local-command.ts';

const root = resolve(import.meta.dir, '..');
const webDir = join(root, 'web');
const webDist = join(webDir, 'dist');
const env = process.env;
// Note: each port variable reaches only its own process (PORT the API); no child
// inherits the others.
const portEnv = await takePortVariables();
const ports = stackPorts(portEnv);

const say = (line: string) => console.log(`start   | ${line}`);
await exitOnBusyPorts(
  [{ variable: 'PORT', port: ports.api, what: 'the API and the web app' }],
  ports,
  env,
  'start',
);
const log = stackLog;

const started = performance.now();
const services: Array<Pick<Service, 'name' | 'stop'>> = [];
let mail: LocalMail | undefined;
let stopping = false;
// Note: the build (CPU) and the stack's start (mostly waiting on Postgres and the chain) overlap.
const build = buildWebApp();
const starting: Promise<LocalStack | undefined> = startLocalStack({
  dataDir: resolve(root, env.DATA_DIR ?? '.data'),
  ports,
  blockTime: env.BLOCK_TIME ? Number(env.BLOCK_TIME) : 1,
  persistChain: true,
  log,
}).catch((error) => {
  console.error(error);
  return undefined;
});
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  await Promise.all(services.map((s) => s.stop()));
  await mail?.stop();
  // Note: a Ctrl-C while the stack is starting stops it once it is up.
  await (await starting)?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

/** Stops everything and never resolves (the process exits). */
async function fail(): Promise<never> {
  await shutdown(1);
  return new Promise<never>(() => {});
}
const stack = (await starting) ?? (await fail());
if (stopping) await fail();
for (const notice of stack.notices) say(notice);
if (!(await build) || stopping) await fail();

// Note: the API gets its role and public keys only; the seed and the private keys are the worker's.
const serviceEnv = serviceEnvironments(stack);
mail = await localMail(env, stack.env.LOCAL_MODE === 'true', ports);
const mailEnv = mailEnvironments(mail);
services.push(
  superviseService('api', process.execPath, [join(root, 'api/src/index.ts')], {
    say,
    env: {
      ...serviceEnv.api,
      ...mailEnv.api,
      PORT: String(ports.api),
      WEB_DIST: webDist,
      // Note: uploaded images beside the database, unless the shell names a folder or a bucket.
      UPLOADS_DIR: env.UPLOADS_DIR ?? join(resolve(root, env.DATA_DIR ?? '.data'), 'uploads'),
    },
  }),
);
services.push(
  superviseService('worker', process.execPath, [join(root, 'api/src/worker.ts')], {
    say,
    // Note: the origin of the links in receipts (review forms): the shell's, else the local app's.
    env: {
      ...serviceEnv.worker,
      ...mailEnv.worker,
      WEB_DIST: undefined,
      PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${ports.api}`,
    },
  }),
);
const apiUrl = `http://localhost:${ports.api}`;
if (await waitForHealth(`http://127.0.0.1:${ports.api}/api/health`)) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const sqlToken = Boolean(env.INDEXER_SQL_TOKEN);
  const local = stack.env.LOCAL_MODE === 'true';
  console.log(
    [
      '',
      `Ready in ${seconds} s`,
      `  web app      ${apiUrl}  (the built PWA, served by the API: service worker, offline, install)`,
      ...(local
        ? [
            `  demo store   ${apiUrl}/store/demo-store  (installs as its own app)`,
            `  admin        ${apiUrl}/admin  (demo / demo-password)`,
          ]
        : []),
      `  API          ${apiUrl}/api/health  (OpenAPI: /api/openapi)`,
      `  indexer      ${stack.env.INDEXER_URL}  ${
        sqlToken
          ? '(/graphql and /sql/* with the INDEXER_SQL_TOKEN bearer token)'
          : '(/graphql and /sql/* off: set INDEXER_SQL_TOKEN to turn them on)'
      }`,
      `  email        ${
        mail?.inboxUrl
          ? `${mail.inboxUrl}  (local inbox: every receipt sent to shoppers)`
          : mail?.smtpUrl
            ? 'receipts sent over SMTP_URL'
            : 'no mail server: set SMTP_URL to email receipts'
      }`,
      `  chain        ${stack.env.RPC_URL} (chain ${stack.env.CHAIN_ID}, USDC ${stack.env.USDC_ADDRESS ?? ''})`,
      `  database     ${stack.adminDatabaseUrl}  (owner; each service has its own role)`,
      // Note: the embedded Postgres only; with DATABASE_URL every role's URL is that one.
      ...(env.DATABASE_URL
        ? []
        : [
            `  analysts     ${stack.databaseUrls.analyst}  (read-only: the analytics views, README "Analytics")`,
          ]),
      'Press Ctrl-C to stop. To change the code with live reload, use `bun run dev` instead.',
      '',
    ].join('\n'),
  );
}

/**
 * Builds web/ into web/dist with Vite, unless dist is newer than every source of the web app
 * (web/, shared/src, the lockfile). Resolves false when the build failed.
 */
async function buildWebApp(): Promise<boolean> {
  const builtAt = existsSync(join(webDist, 'index.html'))
    ? statSync(join(webDist, 'index.html')).mtimeMs
    : 0;
  const inputs = [
    join(webDir, 'src'),
    join(webDir, 'public'),
    join(webDir, 'index.html'),
    join(webDir, 'vite.config.ts'),
    join(webDir, 'package.json'),
    join(root, 'shared/src'),
    join(root, 'bun.lock'),
  ];
  if (builtAt > 0 && newestChange(inputs) < builtAt) {
    say('web app: web/dist is up to date with its sources (delete it to build again)');
    return true;
  }
  say('web app: building web/dist (vite build)…');
  const vite = join(
    dirname(createRequire(join(webDir, 'package.json')).resolve('vite/package.json')),
    'bin/vite.js',
  );
  const output: string[] = [];
  const builder = startService('build', 'node', [vite, 'build', '--emptyOutDir'], {
    cwd: webDir,
    log: (line) => output.push(line),
  });
  services.push(builder);
  const code = await builder.exited;
  services.splice(services.indexOf(builder), 1);
  if (stopping) return false;
  if (code !== 0) {
    console.error(output.slice(-40).join('\n'));
    console.error(`start   | vite build failed (${code})`);
    return false;
  }
  const summary = output.find((line) => /built in/.test(line));
  say(`web app: built${summary ? ` (${summary.replace(/^.*built in/, 'in').trim()})` : ''}`);
  return true;
}

/** The newest modification time under `paths` (files, and folders walked), 0 when none exist. */
function newestChange(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        // Note: the route tree is generated (by the build and by `bun run dev`) from src/routes.
        if (entry !== 'routeTree.gen.ts' && entry !== 'node_modules') visit(join(path, entry));
      }
    } else if (stat.mtimeMs > newest) newest = stat.mtimeMs;
  };
  for (const path of paths) visit(path);
  return newest;
}

async function waitForHealth(url: string, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return true;
    await Bun.sleep(250);
  }
  if (!stopping) console.error(`start   | ${url} is not healthy after ${timeoutMs / 1000} s`);
  return false;
}
