// axe-core's checks against WCAG 2.1 A and AA, run in the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * What axe-core finds against WCAG 2.1 A and AA on the page (or only within the elements
 * `within` selects, e.g. an open dialog over a dimmed page): rule and where.
 */
export async function accessibilityViolations(page: Page, within?: string) {
  // Note: evaluated by the browser's devtools protocol: the page's policy allows no inline script.
  await page.evaluate(
    readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
  );
  return page.evaluate(async (within) => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<Result> } })
      .axe;
    type Result = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const result = await axe.run(within ? { include: [within] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      rule: v.id,
      at: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, within);
}
