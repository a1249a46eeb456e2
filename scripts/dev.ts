// `bun run dev`: the whole product on embedded defaults (Postgres, anvil with Circle's USDC,
// indexer, API, settlement worker) with the web app under the Vite dev server, for changing the
// code (`bun run start` runs the built app instead). Ctrl-C stops every child it started.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { portFromEnv, takePortVariables } from '@store/stack/ports';
import { type Service, startService } from '@store/stack/process';
import { serviceEnvironments, startLocalStack } from '@store/stack/stack';
import {
  exitOnBusyPorts,
  localMail,
  mailEnvironments,
  stackLog,
  stackPorts,
} from './local-command.ts';

const root = resolve(import.meta.dir, '..');
const env = process.env;
// Note: each port variable reaches only its own process (PORT the API, WEB_PORT Vite); no child
// inherits the others.
const portEnv = await takePortVariables();
const ports = { ...stackPorts(portEnv), web: portFromEnv(portEnv, 'WEB_PORT', 5173) };
// A port in use is named with the variable that moves it, before anything starts.
await exitOnBusyPorts(
  [
    { variable: 'WEB_PORT', port: ports.web, what: 'the Vite dev server' },
    { variable: 'PORT', port: ports.api, what: 'the API' },
  ],
  ports,
  env,
  'dev',
);
const log = stackLog;

const started = performance.now();
const stack = await startLocalStack({
  dataDir: resolve(root, env.DATA_DIR ?? '.data'),
  ports,
  blockTime: env.BLOCK_TIME ? Number(env.BLOCK_TIME) : 1,
  persistChain: true,
  log,
});
for (const notice of stack.notices) console.log(`dev     | ${notice}`);

const services: Service[] = [];
// Note: the API gets its role and public keys only; the seed and the private keys are the worker's.
const serviceEnv = serviceEnvironments(stack);
const mail = await localMail(env, stack.env.LOCAL_MODE === 'true', ports);
if (mail.inboxUrl) console.log(`dev     | local inbox (receipts): ${mail.inboxUrl}`);
const mailEnv = mailEnvironments(mail);
services.push(
  startService('api', process.execPath, [join(root, 'api/src/index.ts')], {
    env: { ...serviceEnv.api, ...mailEnv.api, PORT: String(ports.api) },
  }),
);
services.push(
  startService('worker', process.execPath, [join(root, 'api/src/worker.ts')], {
    env: { ...serviceEnv.worker, ...mailEnv.worker },
  }),
);
const vite = join(
  dirname(createRequire(join(root, 'web/package.json')).resolve('vite/package.json')),
  'bin/vite.js',
);
services.push(
  startService('web', 'node', [vite, '--port', String(ports.web), '--strictPort'], {
    cwd: join(root, 'web'),
    env: { API_URL: `http://127.0.0.1:${ports.api}`, WEB_PORT: String(ports.web) },
  }),
);

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  console.log('dev     | stopping…');
  await Promise.all(services.map((s) => s.stop()));
  await mail.stop();
  await stack.stop();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
for (const service of services) {
  service.exited.then((code) => {
    if (stopping) return;
    console.error(`dev     | ${service.name} exited (${code}); stopping everything`);
    void shutdown(1);
  });
}

await waitForHealth(`http://127.0.0.1:${ports.api}/api/health`);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  [
    '',
    `Ready in ${seconds} s`,
    `  web app      http://localhost:${ports.web}`,
    `  API          http://localhost:${ports.api}/api/health  (OpenAPI: /api/openapi)`,
    `  indexer      ${stack.env.INDEXER_URL}  ${
      env.INDEXER_SQL_TOKEN
        ? '(/graphql and /sql/* with the INDEXER_SQL_TOKEN bearer token)'
        : '(/graphql and /sql/* off: set INDEXER_SQL_TOKEN to turn them on)'
    }`,
    `  chain        ${stack.env.RPC_URL} (chain ${stack.env.CHAIN_ID}, USDC ${stack.env.USDC_ADDRESS ?? ''})`,
    `  database     ${stack.adminDatabaseUrl}  (owner; each service has its own role)`,
    'Press Ctrl-C to stop. `bun run start` runs the built app as shoppers get it.',
    '',
  ].join('\n'),
);

async function waitForHealth(url: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await Bun.sleep(250);
  }
  if (!stopping) console.error(`dev     | ${url} is not healthy after ${timeoutMs / 1000} s`);
}
