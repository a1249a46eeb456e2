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

/** The two sizes every changed page is looked at in. */
export const SCREEN_SIZES = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1280, height: 800 },
} as const;

/**
 * Saves `{name}-phone.png` and `{name}-laptop.png`, after checking that nothing scrolls sideways
 * at 390 px; the page is left at the laptop size.
 */
export async function snapBoth(page: Page, name: string): Promise<void> {
  await page.setViewportSize(SCREEN_SIZES.phone);
  // Note: the message names the elements that stick out, for whoever has to fix it.
  const wide = await page.evaluate((limit) => {
    const out = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > limit + 1)
      // Note: what a scrolling box holds scrolls there, not the page.
      .filter((el) => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') return false;
        return true;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return { width: document.documentElement.scrollWidth, out: out.slice(0, 8) };
  }, SCREEN_SIZES.phone.width);
  if (wide.width > SCREEN_SIZES.phone.width)
    throw new Error(
      `${name} scrolls sideways at 390 px (${wide.width} px): ${wide.out.join(', ')}`,
    );
  await snap(page, `${name}-phone`);
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await snap(page, `${name}-laptop`);
}
