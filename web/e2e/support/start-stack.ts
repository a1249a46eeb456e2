// The e2e stack, started by Playwright's webServer with `bun e2e/support/start-stack.ts`:
// embedded Postgres, anvil at Base's pace with Circle's USDC, the indexer, the settlement worker
// and the API serving the built web app on one origin (WEB_DIST, as `bun run start` and the
// deployments do). Seeds a store through the API, writes e2e/.stack.json, prints "e2e: stack
// ready" (what Playwright waits for) and stops every process it started by pid on SIGTERM/SIGINT.
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type MailCatcher, startMailCatcher } from '@store/stack/mail-catcher';
import { portProblems } from '@store/stack/ports';
import { type Service, startService } from '@store/stack/process';
import { serviceEnvironments, startLocalStack } from '@store/stack/stack';
import { E2E_PORTS, type StackInfo, stackInfoFile } from '@store/stack/stack-info';
import { seedStore } from './seed.ts';

const webDir = resolve(import.meta.dir, '../..');
const root = resolve(webDir, '..');
const verbose = process.env.E2E_VERBOSE === '1';
const log = (part: string, line: string) => {
  if (verbose || /error|fatal|panic/i.test(line)) console.log(`${part.padEnd(8)}| ${line}`);
};
const vite = join(
  dirname(createRequire(join(webDir, 'package.json')).resolve('vite/package.json')),
  'bin/vite.js',
);

// Note: a busy port fails the run at once, naming the variable that moves it.
const problems = await portProblems(
  [
    { variable: 'E2E_PORT', port: E2E_PORTS.web, what: 'the API and the web app' },
    { variable: 'E2E_POSTGRES_PORT', port: E2E_PORTS.postgres, what: 'the embedded Postgres' },
    { variable: 'E2E_ANVIL_PORT', port: E2E_PORTS.anvil, what: 'the local chain' },
    { variable: 'E2E_INDEXER_PORT', port: E2E_PORTS.indexer, what: 'the indexer' },
  ],
  'bun run test',
);
if (problems.length > 0) {
  for (const problem of problems) console.error(`e2e: ${problem}`);
  process.exit(1);
}

const dataDir = await mkdtemp(join(tmpdir(), 'storefront-e2e-'));
const services: Service[] = [];
let mail: MailCatcher | undefined;
let stopping = false;

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await Promise.all(services.map((service) => service.stop()));
  await mail?.stop();
  await (await starting)?.stop();
  await unlink(stackInfoFile()).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
  process.exit(code);
}

// Note: the build (CPU) overlaps the stack's start (mostly waiting on Postgres and the chain); it
// goes into the run's own folder, so a concurrent run or `bun run start` is not disturbed.
const outDir = join(dataDir, 'dist');
const building = buildWebApp(outDir).then(
  () => undefined,
  (error: unknown) => error,
);
// Note: `env: {}` so a DATABASE_URL or RPC_URL of the developer's shell never leaks into tests.
const starting = startLocalStack({
  dataDir,
  ports: E2E_PORTS,
  blockTime: 0.2,
  ephemeral: true,
  persistChain: false,
  env: {},
  log,
}).catch((error) => {
  console.error(error);
  return undefined;
});
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  const stack = await starting;
  if (!stack) throw new Error('e2e: the local stack did not start');
  const buildError = await building;
  if (buildError) throw buildError;
  // Note: one origin, as users get it: the API serves the built app (its service worker, the
  // stores' manifests and icons) besides /api.
  const webUrl = `http://localhost:${E2E_PORTS.web}`;
  const apiUrl = `http://127.0.0.1:${E2E_PORTS.web}`;
  // Note: as in `bun run start`, each process gets its own role and only the keys it needs.
  const serviceEnv = serviceEnvironments(stack);
  // Note: receipts go to the local mail catcher (any free ports), as in `bun run start`.
  mail = await startMailCatcher({ smtpPort: 0, inboxPort: 0 });
  const quiet = (name: string) => (line: string) => log(name, line);
  services.push(
    startService('api', process.execPath, [join(root, 'api/src/index.ts')], {
      env: {
        ...serviceEnv.api,
        PORT: String(E2E_PORTS.web),
        WEB_DIST: outDir,
        UPLOADS_DIR: join(dataDir, 'uploads'),
        RECEIPTS_BY_EMAIL: 'true',
      },
      log: quiet('api'),
    }),
  );
  services.push(
    startService('worker', process.execPath, [join(root, 'api/src/worker.ts')], {
      env: {
        ...serviceEnv.worker,
        PORT: undefined,
        WEB_DIST: undefined,
        SMTP_URL: mail.smtpUrl,
        MAIL_RETRY_BASE_MS: '500',
        // Note: the origin of the links in mails (a receipt's review links).
        PUBLIC_URL: webUrl,
      },
      log: quiet('worker'),
    }),
  );
  for (const service of services) {
    service.exited.then((exitCode) => {
      if (stopping) return;
      console.error(`e2e: ${service.name} exited (${exitCode}); stopping the stack`);
      void shutdown(1);
    });
  }
  await waitFor(
    `${apiUrl}/api/health`,
    90_000,
    (response) => response.status < 500 || response.status === 503,
  );
  // Note: seeded and written before "stack ready", since Playwright starts the tests then.
  const seeded = await seedStore(apiUrl);
  const info: StackInfo = {
    webUrl,
    apiUrl,
    rpcUrl: stack.env.RPC_URL,
    chainId: Number(stack.env.CHAIN_ID),
    usdc: stack.env.USDC_ADDRESS as `0x${string}`,
    mailInboxUrl: mail.inboxUrl,
    ...seeded,
  };
  await writeFile(stackInfoFile(), JSON.stringify(info, null, 2));
  console.log(`e2e: stack ready at ${webUrl} (chain ${stack.env.RPC_URL})`);
} catch (error) {
  console.error(error);
  await shutdown(1);
}

/** Builds the web app into `outDir` (never a web/dist left from another run); throws on failure. */
async function buildWebApp(outDir: string): Promise<void> {
  const buildOutput: string[] = [];
  const build = startService(
    'build',
    'node',
    [vite, 'build', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: webDir,
      log: (line) => buildOutput.push(line),
    },
  );
  services.push(build);
  const code = await build.exited;
  services.splice(services.indexOf(build), 1);
  if (code !== 0 && !stopping) {
    console.error(buildOutput.slice(-40).join('\n'));
    throw new Error('e2e: vite build failed');
  }
}

async function waitFor(url: string, timeoutMs: number, ready: (response: Response) => boolean) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    const ok = await fetch(url)
      .then(ready)
      .catch(() => false);
    if (ok) return;
    await Bun.sleep(250);
  }
  throw new Error(`e2e: ${url} did not come up within ${timeoutMs / 1000} s`);
}
