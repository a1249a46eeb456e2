// A background loop of passes: one every `intervalMs`, at once when woken (the detection loop
// wakes forwarding and webhooks when it records a change), and back to back while there is work.

/** A running loop. */
export interface WakeableLoop {
  /** Runs the next pass now instead of after the interval. */
  wake(): void;
  /** Finishes the pass in progress, then stops. */
  stop(): Promise<void>;
}

/** How the interval is counted. */
export interface WakeableLoopOptions {
  /**
   * From the start of a pass (a pass of 150 ms every 200 ms is followed 50 ms after it ends), not
   * from its end: for a loop that must keep to a pace (detection, once per block).
   */
  paceFromStart?: boolean;
}

/**
 * Runs `pass` until stopped; `pass` returns true when it left work for an immediate next pass.
 * Errors are logged once per distinct message and the loop goes on.
 */
export function startWakeableLoop(
  name: string,
  intervalMs: number,
  pass: () => Promise<boolean>,
  log: (line: string) => void,
  options: WakeableLoopOptions = {},
): WakeableLoop {
  let stopped = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let lastError = '';
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      woken = false;
      let more = false;
      try {
        more = await pass();
        lastError = '';
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (message !== lastError) log(`${name} pass failed (will retry): ${message}`);
        lastError = message;
      }
      const wait = options.paceFromStart
        ? Math.max(0, intervalMs - (performance.now() - started))
        : intervalMs;
      if (!stopped && !more && !woken) await sleep(wait);
    }
  })();
  return {
    wake: () => {
      woken = true;
      wakeUp?.();
    },
    stop: async () => {
      stopped = true;
      wakeUp?.();
      await loop;
    },
  };
}
