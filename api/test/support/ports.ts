// Note: freePort lives in @store/stack/ports; this module only keeps the tests that still import it
// from here compiling until they import it from there.
export { freePort } from '@store/stack/ports';
