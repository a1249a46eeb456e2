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
 * Fails when the page scrolls sideways at its current width, naming the elements that stick out
 * (what a scrolling box holds scrolls there, not the page).
 */
export async function expectNoSidewaysScroll(page: Page, name: string): Promise<void> {
  const limit = page.viewportSize()?.width ?? SCREEN_SIZES.phone.width;
  const wide = await page.evaluate((limit) => {
    const out = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > limit + 1)
      .filter((el) => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') return false;
        return true;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return { width: document.documentElement.scrollWidth, out: out.slice(0, 8) };
  }, limit);
  if (wide.width > limit)
    throw new Error(
      `${name} scrolls sideways at ${limit} px (${wide.width} px): ${wide.out.join(', ')}`,
    );
}

/**
 * Saves `{name}-phone.png` and `{name}-laptop.png` (with `noSidewaysScroll`, after checking that
 * nothing scrolls sideways at 390 px); the page is left at the laptop size.
 */
export async function snapBoth(
  page: Page,
  name: string,
  options: { noSidewaysScroll?: boolean } = {},
): Promise<void> {
  await page.setViewportSize(SCREEN_SIZES.phone);
  if (options.noSidewaysScroll) await expectNoSidewaysScroll(page, name);
  await snap(page, `${name}-phone`);
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await snap(page, `${name}-laptop`);
}
