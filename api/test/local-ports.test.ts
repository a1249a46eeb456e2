// The local commands check their ports before starting anything: a port in use, a value that is
// not a port and two parts on one port each get one line naming the variable to change.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect, createServer, type Server } from 'node:net';
import { freePort, isListenedOn, isPortFree, portFromEnv, portProblems } from '@store/stack/ports';

describe('port checks of bun run start and bun run dev', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busyPort = await freePort();
    busy = createServer();
    // Note: a loopback-only listener (like Postgres and anvil) must count as in use too.
    await new Promise<void>((resolve) => busy.listen(busyPort, '127.0.0.1', resolve));
  });
  afterAll(() => {
    busy.close();
  });

  test('a port something listens on is named with its variable', async () => {
    expect(await isPortFree(busyPort)).toBe(false);
    const free = await freePort();
    const problems = await portProblems(
      [
        { variable: 'PORT', port: free, what: 'the API' },
        { variable: 'ANVIL_PORT', port: busyPort, what: 'the local chain' },
      ],
      'bun run start',
    );
    expect(problems).toEqual([
      `Port ${busyPort} (the local chain) is already in use: stop what listens there or set ANVIL_PORT to a free port, e.g. \`ANVIL_PORT=${busyPort + 1} bun run start\`.`,
    ]);
  });

  test('free ports pass, and are still free after the check', async () => {
    const port = await freePort();
    expect(await portProblems([{ variable: 'PORT', port, what: 'the API' }], 'x')).toEqual([]);
    expect(await isPortFree(port)).toBe(true);
  });

  test('a value that is not a port, and two parts on one port', async () => {
    const port = await freePort();
    const problems = await portProblems(
      [
        { variable: 'PORT', port: portFromEnv({ PORT: 'abc' }, 'PORT', 3000), what: 'the API' },
        { variable: 'WEB_PORT', port, what: 'Vite' },
        { variable: 'INDEXER_PORT', port, what: 'the indexer' },
      ],
      'bun run dev',
    );
    expect(problems).toEqual([
      'PORT must be a port number from 1 to 65535 (the API).',
      `INDEXER_PORT and WEB_PORT are both ${port}: the indexer and Vite need a port each.`,
    ]);
  });

  test('a port an outgoing connection holds is named too (no server could bind it)', async () => {
    const client = connect(busyPort, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    const port = client.localPort ?? 0;
    // Note: the side that closes first keeps its port in TIME_WAIT.
    client.end();
    await new Promise((resolve) => client.once('close', resolve));
    expect(await isListenedOn(port)).toBe(false);
    expect(
      await portProblems([{ variable: 'INDEXER_PORT', port, what: 'the indexer' }], 'x'),
    ).toEqual([
      `Port ${port} (the indexer) is held by a connection of this machine, not a server: wait a minute or set INDEXER_PORT to a free port, e.g. \`INDEXER_PORT=${port + 1} x\`.`,
    ]);
  });

  test('an unset or empty variable takes the default', () => {
    expect(portFromEnv({}, 'PORT', 3000)).toBe(3000);
    expect(portFromEnv({ PORT: ' ' }, 'PORT', 3000)).toBe(3000);
    expect(portFromEnv({ PORT: '3120' }, 'PORT', 3000)).toBe(3120);
  });
});
