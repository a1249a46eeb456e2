// The requests this process is handling, so that a stopping process lets them finish (their
// database work included) before it closes its database, whether or not their client is still
// connected: a handler whose client went away still runs to its end.
import { Elysia } from 'elysia';

let running = 0;

/** Plugin: counts each request from its arrival until its response is done (or abandoned). */
export const requestsInFlight = () =>
  new Elysia({ name: 'in-flight' })
    .onRequest(() => {
      running += 1;
    })
    .onAfterResponse({ as: 'global' }, () => {
      running -= 1;
    });

/** Waits until no request is being handled, or `timeoutMs`; the number still running. */
export async function requestsFinished(timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (running > 0 && Date.now() < deadline) await Bun.sleep(10);
  return running;
}
