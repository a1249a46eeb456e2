// The deployment's chain is the local one on the test stack: no page may name Base.
import { expect, type Page } from '@playwright/test';

/** Fails when the page names the local chain anything but what it is (no "Base" anywhere). */
export async function expectNoBase(page: Page): Promise<void> {
  await expect(page.locator('body')).not.toContainText(/\bBase\b/);
}
