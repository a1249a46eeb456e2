// Where the e2e stack runs and what it seeded, shared by start-stack.ts (writer) and the tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Fixed test ports (override with E2E_*_PORT), away from the dev command's. */
export const E2E_PORTS = {
  postgres: Number(process.env.E2E_POSTGRES_PORT ?? 55433),
  anvil: Number(process.env.E2E_ANVIL_PORT ?? 18545),
  indexer: Number(process.env.E2E_INDEXER_PORT ?? 42169),
  api: Number(process.env.E2E_API_PORT ?? 13000),
  web: Number(process.env.E2E_PORT ?? 14173),
};

/** The file start-stack.ts writes once everything is up (E2E_STACK_FILE lets two runs coexist). */
export function stackInfoFile(): string {
  return (
    process.env.E2E_STACK_FILE ??
    fileURLToPath(new URL('../../web/e2e/.stack.json', import.meta.url))
  );
}

/** A seeded product. */
export interface SeededProduct {
  id: string;
  title: string;
  priceUsdc: string;
  inventory: number;
}

/** What the tests need to know about the running stack. */
export interface StackInfo {
  webUrl: string;
  apiUrl: string;
  rpcUrl: string;
  chainId: number;
  usdc: `0x${string}`;
  /** The local mail catcher's inbox (GET /api/messages: every email the worker sent). */
  mailInboxUrl: string;
  store: { id: string; slug: string; name: string; paymentAddress: string };
  products: SeededProduct[];
}

/** Reads the running stack's info (written before Playwright starts the tests). */
export function readStackInfo(): StackInfo {
  return JSON.parse(readFileSync(stackInfoFile(), 'utf8')) as StackInfo;
}
