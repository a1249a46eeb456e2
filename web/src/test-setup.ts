// Vitest setup: an in-memory IndexedDB, and tell React that tests wrap updates in act().
import 'fake-indexeddb/auto';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// Note: jsdom has no scrolling; the router's scroll restoration calls scrollTo.
window.scrollTo = () => {};
