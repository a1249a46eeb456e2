// Journey: on a phone (390×844) the shopper taps Buy Now and lands on the checkout while the
// "Added to cart" toast would still be showing. The toast speaks of the page it was raised on, so
// it goes with that page: nothing on the checkout (the shipping choices, the pay bar) is under it.
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { SCREEN_SIZES, snap } from './support/screenshots.ts';

/**
 * 'uncovered' when every point of `selector`'s n-th match (nine points across it)
 * shows that element (or what is inside it), else what covers it; once
 * scrolled as a thumb meets it: `edge` puts it at the bottom of what the page leaves visible (above
 * its own pay bar on a phone), `center` in the middle of the screen.
 */
function whatCovers(page: Page, selector: string, index: number, at: 'edge' | 'center') {
  return page.evaluate(
    ([selector, index, at]) => {
      const target = document.querySelectorAll(selector)[Number(index)] as HTMLElement;
      target.scrollIntoView({ block: 'center', behavior: 'instant' });
      if (at === 'edge') {
        const bar = document.querySelector('.pay-bar');
        const bottom =
          bar && getComputedStyle(bar).display !== 'none'
            ? bar.getBoundingClientRect().top
            : window.innerHeight;
        window.scrollBy({
          top: target.getBoundingClientRect().bottom - bottom + 1,
          behavior: 'instant',
        });
      }
      const box = target.getBoundingClientRect();
      // Note: not the very corners: hit testing follows rounded borders.
      const xs = [0.1, 0.5, 0.9].map((f) => box.left + box.width * f);
      const ys = [0.1, 0.5, 0.9].map((f) => box.top + box.height * f);
      // Note: what covers it is named, so a failure says what is in the way.
      for (const x of xs)
        for (const y of ys) {
          const hit = document.elementFromPoint(x, y);
          if (hit === null || !target.contains(hit))
            return `${hit?.tagName.toLowerCase()}.${hit?.className} at ${Math.round(x)},${Math.round(y)}`;
        }
      return 'uncovered';
    },
    [selector, String(index), at] as const,
  );
}

test('after Buy Now on a phone, no toast covers the checkout’s shipping choices', async ({
  page,
}) => {
  const stack = readStackInfo();
  const product = stack.products[0];
  if (!product) throw new Error('the stack seeded no product');
  await page.setViewportSize(SCREEN_SIZES.phone);
  await page.goto(`/store/${stack.store.slug}/product/${product.id}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  const choices = page.locator('.shipping-methods .radio-card');
  await expect(choices.first()).toBeVisible();
  const count = await choices.count();
  expect(count).toBeGreaterThan(0);
  // Note: checked at once (a toast lasts 5 s); each choice where a thumb scrolling down meets it
  // first, at the bottom of the screen, then in the middle.
  for (const at of ['edge', 'center'] as const) {
    for (let index = 0; index < count; index++) {
      expect(
        await whatCovers(page, '.shipping-methods .radio-card', index, at),
        `shipping choice ${index + 1} (at the ${at} of the screen)`,
      ).toBe('uncovered');
    }
    expect(
      await whatCovers(page, '.pay-bar button', 0, at),
      `the pay bar's Proceed to Payment (at the ${at} of the screen)`,
    ).toBe('uncovered');
  }
  await expect(page.getByRole('status').filter({ hasText: 'Added to cart' })).toHaveCount(0);
  // Choosing one works at once.
  await choices.last().click({ timeout: 1_000 });
  await expect(choices.last().getByRole('radio')).toBeChecked();
  await snap(page, 'checkout-after-buy-now-phone');
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await snap(page, 'checkout-after-buy-now-laptop');
});
