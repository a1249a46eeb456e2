// Test hook: the worker kills itself (SIGKILL, as `kill -9` would) at a named forwarding step,
// so the crash tests can restart it from exactly there. Unset in every real deployment.

/** The steps of a forwarding round a test can stop the worker at. */
export const CRASH_STEPS = ['before-signing', 'after-submitting', 'before-recording'] as const;
/** The same steps of a refund round (one leg 'refund' from the deposit address). */
export const REFUND_CRASH_STEPS = [
  'refund-before-signing',
  'refund-after-submitting',
  'refund-before-recording',
] as const;
/** One of them. */
export type CrashStep = (typeof CRASH_STEPS)[number] | (typeof REFUND_CRASH_STEPS)[number];

/** Dies here when `configured` names this step. */
export function crashPoint(configured: string | undefined, step: CrashStep): void {
  if (configured !== step) return;
  console.log(`worker: FORWARDING_CRASH_AT=${step}: killing myself now`);
  process.kill(process.pid, 'SIGKILL');
}
