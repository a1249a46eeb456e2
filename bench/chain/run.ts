// The local chain alone, as the throughput benchmark runs it (anvil at Base's pace, 0.2 s
// blocks) with only other USDC traffic: the CPU the chain takes in each window of a steady load.
// A ceiling for the payment benchmarks, which share its two cores: what the chain costs there
// before any payment is made, and how that grows with the chain's state.
//   bun bench/chain/run.ts [--per-block 60] [--seconds 90] [--window 15]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startAnvil } from '@store/stack/anvil';
import { prepareSenders, startBackground } from '@store/stack/background-traffic';
import { freePort } from '@store/stack/ports';
import { deployLocalUsdc } from '@store/stack/usdc';
import { machine } from '../detection/report.ts';
import { cpuSeconds } from '../process-cpu.ts';

const { values: args } = parseArgs({
  options: {
    'per-block': { type: 'string', default: '60' },
    seconds: { type: 'string', default: '90' },
    window: { type: 'string', default: '15' },
  },
});
const PER_BLOCK = Number(args['per-block']);
const WINDOW_S = Number(args.window);
const WINDOWS = Math.max(1, Math.round(Number(args.seconds) / WINDOW_S));
const startLoad = loadavg()[0] ?? 0;

const anvil = await startAnvil({ port: await freePort(), blockTime: 0.2 });
const chainCpu = () => cpuSeconds().get('bin/anvil') ?? 0;
try {
  const { usdc } = await deployLocalUsdc({ rpcUrl: anvil.rpcUrl });
  const env = { RPC_URL: anvil.rpcUrl, USDC_ADDRESS: usdc };
  await prepareSenders(env);
  const traffic = startBackground(env, PER_BLOCK);
  const windows: { from: number; to: number; cpu: number }[] = [];
  let before = chainCpu();
  for (let i = 0; i < WINDOWS; i++) {
    await Bun.sleep(WINDOW_S * 1000);
    const now = chainCpu();
    windows.push({ from: i * WINDOW_S, to: (i + 1) * WINDOW_S, cpu: now - before });
    before = now;
  }
  const sent = await traffic.stop();
  console.log(`Machine: ${await machine(startLoad)}.`);
  console.log(`${PER_BLOCK} USDC transfers to fresh addresses every 0.2 s block; ${sent} sent.`);
  console.log('| seconds into the load | anvil CPU seconds | share of one core |');
  console.log('| --------------------- | ----------------- | ----------------- |');
  for (const w of windows)
    console.log(
      `| ${w.from}-${w.to} | ${w.cpu.toFixed(1)} | ${((100 * w.cpu) / WINDOW_S).toFixed(0)}% |`,
    );
  console.log(JSON.stringify({ perBlock: PER_BLOCK, sent, windows }));
} finally {
  await anvil.stop();
}
