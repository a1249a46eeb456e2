// Note: the loop primitive lives in loops/wakeable-loop.ts; this module keeps the settlement
// files that still import it from here compiling until they import it from there.
export { startWakeableLoop, type WakeableLoop } from '../loops/wakeable-loop.ts';
