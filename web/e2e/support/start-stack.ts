// The e2e stack, started by Playwright's webServer with `bun e2e/support/start-stack.ts`:
// embedded Postgres, anvil at Base's pace with Circle's USDC, the indexer, the API, the
// settlement worker and the built web app under `vite preview`. Seeds a store through the API,
// writes e2e/.stack.json, and stops every process it started by pid on SIGTERM/SIGINT.
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type Service, startService } from '../../../api/src/local/process.ts';
import { serviceEnvironments, startLocalStack } from '../../../api/src/local/stack.ts';
import { seedStore } from './seed.ts';
import { E2E_PORTS, type StackInfo, stackInfoFile } from './stack-info.ts';

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

const dataDir = await mkdtemp(join(tmpdir(), 'storefront-e2e-'));
const services: Service[] = [];
let stopping = false;
// Note: `env: {}` so a DATABASE_URL or RPC_URL of the developer's shell never leaks into tests.
const stack = await startLocalStack({
  dataDir,
  ports: E2E_PORTS,
  blockTime: 0.2,
  ephemeral: true,
  persistChain: false,
  env: {},
  log,
});

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await Promise.all(services.map((service) => service.stop()));
  await stack.stop();
  await unlink(stackInfoFile()).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  const apiUrl = `http://127.0.0.1:${E2E_PORTS.api}`;
  // Note: as in `bun run dev`, each process gets its own role and only the keys it needs.
  const serviceEnv = serviceEnvironments(stack);
  const quiet = (name: string) => (line: string) => log(name, line);
  services.push(
    startService('api', process.execPath, [join(root, 'api/src/index.ts')], {
      env: { ...serviceEnv.api, PORT: String(E2E_PORTS.api) },
      log: quiet('api'),
    }),
  );
  services.push(
    startService('worker', process.execPath, [join(root, 'api/src/worker.ts')], {
      env: serviceEnv.worker,
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
  // Note: seeded and written before the web server listens, since Playwright starts the tests then.
  const webUrl = `http://localhost:${E2E_PORTS.web}`;
  const seeded = await seedStore(apiUrl);

  const info: StackInfo = {
    webUrl,
    apiUrl,
    rpcUrl: stack.env.RPC_URL,
    chainId: Number(stack.env.CHAIN_ID),
    usdc: stack.env.USDC_ADDRESS as `0x${string}`,
    ...seeded,
  };
  await writeFile(stackInfoFile(), JSON.stringify(info, null, 2));
  const buildOutput: string[] = [];
  // Note: built into the run's own folder, so a concurrent run or `bun run dev` is not disturbed.
  const outDir = join(dataDir, 'dist');
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
  if ((await build.exited) !== 0) {
    console.error(buildOutput.slice(-40).join('\n'));
    throw new Error('e2e: vite build failed');
  }
  services.push(
    startService(
      'web',
      'node',
      // Note: the build of this run, never a web/dist left from another one.
      [vite, 'preview', '--outDir', outDir, '--port', String(E2E_PORTS.web), '--strictPort'],
      {
        cwd: webDir,
        env: { API_URL: apiUrl },
        log: quiet('web'),
      },
    ),
  );
  await waitFor(webUrl, 60_000, (response) => response.ok);
  console.log(`e2e: stack ready at ${webUrl} (API ${apiUrl}, chain ${stack.env.RPC_URL})`);
} catch (error) {
  console.error(error);
  await shutdown(1);
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
