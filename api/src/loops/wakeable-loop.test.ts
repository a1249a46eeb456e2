// The wakeable loop's pace: a wake starts a pass at once, and with a least gap between passes the
// wakes of a busy moment are gathered into one pass.
import { describe, expect, test } from 'bun:test';
import { startWakeableLoop } from './wakeable-loop.ts';

/** Starts a loop with a long interval, wakes it every 10 ms for `forMs`, and counts its passes. */
async function passesWhenWoken(minGapMs: number | undefined, forMs: number) {
  const starts: number[] = [];
  const loop = startWakeableLoop(
    'test',
    60_000,
    async () => {
      starts.push(performance.now());
      return false;
    },
    () => {},
    minGapMs === undefined ? {} : { minGapMs },
  );
  const until = performance.now() + forMs;
  while (performance.now() < until) {
    loop.wake();
    await Bun.sleep(10);
  }
  await loop.stop();
  const gaps = starts.slice(1).map((at, i) => at - (starts[i] ?? at));
  return { passes: starts.length, gaps };
}

describe('startWakeableLoop', () => {
  test('without a gap, every wake starts a pass soon', async () => {
    const { passes } = await passesWhenWoken(undefined, 400);
    expect(passes).toBeGreaterThan(15);
  });

  test('with a least gap, the wakes that come meanwhile are one pass, never sooner', async () => {
    const { passes, gaps } = await passesWhenWoken(100, 400);
    // Note: the first pass at the start, the first wake at once, then one per 100 ms at most.
    expect(passes).toBeGreaterThanOrEqual(4);
    expect(passes).toBeLessThanOrEqual(6);
    expect(gaps[0]).toBeLessThan(50);
    expect(Math.min(...gaps.slice(1))).toBeGreaterThanOrEqual(99);
  });

  test('a wake past the gap starts the next pass at once', async () => {
    const starts: number[] = [];
    const loop = startWakeableLoop(
      'test',
      60_000,
      async () => {
        starts.push(performance.now());
        return false;
      },
      () => {},
      { minGapMs: 10_000 },
    );
    await Bun.sleep(20);
    // A wake after the first pass (not asked for) runs at once; the next waits for the gap.
    loop.wake();
    await Bun.sleep(50);
    loop.wake();
    await Bun.sleep(50);
    expect(starts).toHaveLength(2);
    loop.wake(true);
    await Bun.sleep(50);
    await loop.stop();
    expect(starts).toHaveLength(3);
  });

  test('a stop during the gap ends the loop at once', async () => {
    const loop = startWakeableLoop(
      'test',
      60_000,
      async () => false,
      () => {},
      {
        minGapMs: 60_000,
      },
    );
    loop.wake();
    const started = performance.now();
    await loop.stop();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
