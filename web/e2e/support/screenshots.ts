// Screenshots of each journey's key pages, kept in e2e/screenshots/ (gitignored) after the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** Saves a full-page PNG named `{name}.png`. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  await page.screenshot({ path: `${DIR}${name}.png`, fullPage: true });
}

/** Saves PNG bytes taken some other way (a screencast frame) as `{name}.png` beside the others. */
export function saveScreenshot(name: string, png: Uint8Array): void {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(`${DIR}${name}.png`, png);
}
