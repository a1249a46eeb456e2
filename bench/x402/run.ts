// x402 latency at Base's pace: the local stack with 0.2 s blocks, the API and the worker as their
// own processes, a merchant API on 127.0.0.1, and the reference client (`@x402/fetch` with an
// `@x402/evm` signer for an anvil account). Measures, per paid request, the time from the moment
// the client sends its signed request (PAYMENT-SIGNATURE) to the moment the resource's answer is
// back, and prints p50/p95/max. Usage: bun bench/x402/run.ts [--runs=30]

import { localAccount } from '@store/stack/usdc';
import { ExactEvmScheme } from '@x402/evm';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { sql } from 'drizzle-orm';
import { startBenchStack } from '../bench-stack.ts';

const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 30);
const bench = await startBenchStack('x402');
const upstream = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request) =>
    request.headers.get('x-api-secret') === 'bench-secret'
      ? Response.json({ ok: true })
      : new Response('forbidden', { status: 403 }),
});
try {
  const api = await bench.startApi('api');
  // Note: the worker logs each payment's steps (X402_TRACE) for the phases printed below.
  bench.start('worker', 'worker.ts', { X402_TRACE: '1' });
  const json = { 'content-type': 'application/json', origin: api };
  const signUp = await fetch(`${api}/api/auth/sign-up`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: `bench-${Date.now()}`, password: 'correct horse battery' }),
  });
  const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const headers = { ...json, cookie };
  const store = (await (
    await fetch(`${api}/api/stores`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Bench API',
        slug: `bench-${Date.now()}`,
        paymentAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      }),
    })
  ).json()) as { id: string };
  const product = (await (
    await fetch(`${api}/api/products`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        storeId: store.id,
        title: 'Bench resource',
        priceUsdc: '0.01',
        digital: {
          kind: 'api',
          upstreamUrl: `http://127.0.0.1:${upstream.port}/v1`,
          secretHeaderName: 'X-Api-Secret',
          secretHeaderValue: 'bench-secret',
        },
      }),
    })
  ).json()) as { id: string };
  const url = `${api}/api/x402/products/${product.id}`;
  const usdc = bench.stack.env.USDC_ADDRESS as string;
  const network = `eip155:${bench.stack.env.CHAIN_ID ?? 31337}` as const;
  const signer = localAccount(3);
  let signedAt = 0;
  let signedWall = 0;
  const walls: { signed: number; done: number }[] = [];
  const timed = (async (input: string | Request, init?: RequestInit) => {
    const request = typeof input === 'string' ? new Request(input, init) : new Request(input, init);
    if (request.headers.has('PAYMENT-SIGNATURE')) {
      signedAt = performance.now();
      signedWall = Date.now();
    }
    return fetch(request);
  }) as typeof fetch;
  const pay = wrapFetchWithPaymentFromConfig(timed, {
    schemes: [{ network, client: new ExactEvmScheme(signer) }],
    spendControls: { allowedAssets: [{ network, asset: usdc, maxAmountPerPayment: '1000000' }] },
  });
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) {
    const response = await pay(url);
    const done = performance.now();
    await response.arrayBuffer();
    if (response.status !== 200 || !response.headers.get('PAYMENT-RESPONSE'))
      throw new Error(`run ${i}: ${response.status}\n${bench.logs.slice(-20).join('\n')}`);
    latencies.push(done - signedAt);
    walls.push({ signed: signedWall, done: Date.now() });
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0;
  console.log(
    `x402 signed request -> resource, ${runs} runs at 0.2 s blocks: ` +
      `p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, ` +
      `min ${(latencies[0] ?? 0).toFixed(0)} ms, max ${(latencies.at(-1) ?? 0).toFixed(0)} ms`,
  );
  // Where the time goes, from the payments' rows (same machine clock): the API's checks until the
  // row is recorded, the relayer's submission until the transfer is in a block and seen, and the
  // API noticing it and proxying the merchant's API.
  const rows = await bench.database.db.execute<{ created: Date; settled: Date; served: Date }>(
    sql`select created_at as created, settled_at as settled, served_at as served
      from x402_payments order by created_at`,
  );
  const phase = (f: (i: number) => number) => {
    const values = rows.map((_, i) => f(i)).sort((a, b) => a - b);
    const q = (p: number) =>
      values[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)] ?? 0;
    return `p50 ${q(0.5).toFixed(0)} / p95 ${q(0.95).toFixed(0)} ms`;
  };
  const ms = (d: Date | string) => new Date(d).getTime();
  const r = (i: number) => rows[i] as { created: Date; settled: Date; served: Date };
  const w = (i: number) => walls[i] as { signed: number; done: number };
  console.log(`  verify and record: ${phase((i) => ms(r(i).created) - w(i).signed)}`);
  console.log(
    `  settle (relayer, block, receipt): ${phase((i) => ms(r(i).settled) - ms(r(i).created))}`,
  );
  // The settlement's steps in the worker (ms after the row was recorded), from its trace.
  const steps = new Map<string, number[]>();
  for (const line of bench.logs) {
    const match = /x402-trace \S+ (\w+) (\d+)/.exec(line);
    if (!match?.[1]) continue;
    steps.set(match[1], [...(steps.get(match[1]) ?? []), Number(match[2])]);
  }
  const quantiles = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const q = (p: number) =>
      sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
    return `p50 ${q(0.5).toFixed(0)} / p95 ${q(0.95).toFixed(0)} ms`;
  };
  for (const [step, label] of [
    ['claimed', 'worker woken, row claimed'],
    ['checked', 'authorization checked unused on chain'],
    ['broadcast', 'transaction signed, recorded, broadcast'],
    ['mined', 'receipt read (the block)'],
    ['recorded', 'outcome recorded'],
  ] as const)
    console.log(`    settle, ${label}: ${quantiles(steps.get(step) ?? [])} after recording`);
  console.log(`  notice and proxy: ${phase((i) => ms(r(i).served) - ms(r(i).settled))}`);
  console.log(`  answer to the client: ${phase((i) => w(i).done - ms(r(i).served))}`);
} finally {
  upstream.stop(true);
  await bench.stop();
}
