// Journey: a merchant uploads a PNG logo and a product photo from disk (the phone's file picker or
// camera gives the same input); the storefront shows both, the store installs with the logo in its
// icons, and an SVG logo carrying a script is refused, running nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { createStore, signUp, unique } from './admin-helpers.ts';
import { snap } from './support/screenshots.ts';

const files = mkdtempSync(join(tmpdir(), 'uploads-e2e-'));

/** Writes a file for the file picker and returns its path. */
function file(name: string, bytes: Uint8Array | string): string {
  const path = join(files, name);
  writeFileSync(path, bytes);
  return path;
}

/** The colour of one pixel of a PNG or WebP. */
async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1];
}

test('a merchant uploads a logo and a product photo; the store shows and installs with them', async ({
  page,
}) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Kiln'));
  const logo = file(
    'logo.png',
    await sharp({ create: { width: 600, height: 600, channels: 3, background: '#ff00ff' } })
      .png()
      .toBuffer(),
  );
  const photo = file(
    'photo.jpg',
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2563eb' } })
      .jpeg()
      .toBuffer(),
  );
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await page.goto('/admin');
  const card = page.getByRole('article', { name: store.name });
  await card.getByRole('button', { name: 'Edit' }).click();
  const storeDialog = page.getByRole('dialog', { name: 'Edit Store' });

  // An SVG with a script is refused by the server, and nothing of it runs.
  await storeDialog
    .getByLabel('Logo: choose a file')
    .setInputFiles(
      file(
        'evil.svg',
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
      ),
    );
  await expect(
    storeDialog.getByText('SVG logos may not link to other files or carry scripts'),
  ).toBeVisible();

  await storeDialog.getByLabel('Logo: choose a file').setInputFiles(logo);
  await expect(storeDialog.getByText('logo.png uploaded')).toBeVisible();
  await expect(storeDialog.getByLabel('Logo', { exact: true })).toHaveValue(
    /^\/api\/uploads\/[0-9a-f]{32}\/logo\.png$/,
  );
  await snap(page, 'uploads-1-store-dialog');
  await storeDialog.getByRole('button', { name: 'Update Store' }).click();
  await expect(storeDialog).toBeHidden();

  await card.getByRole('button', { name: 'Add Product' }).click();
  const productDialog = page.getByRole('dialog', { name: 'Add New Product' });
  await productDialog.getByLabel('Title').fill('Stoneware Bowl');
  await productDialog.getByLabel('Price (USDC)').fill('24');
  await productDialog.getByLabel('Image: choose a file').setInputFiles(photo);
  await expect(productDialog.getByText('photo.jpg uploaded')).toBeVisible();
  await productDialog.getByRole('button', { name: 'Add Product' }).click();
  await expect(productDialog).toBeHidden();

  // The storefront shows both, as images the browser decoded.
  await page.goto(`/store/${store.slug}`);
  const product = page.getByRole('article').filter({ hasText: 'Stoneware Bowl' });
  const image = product.locator('img').first();
  await expect(image).toHaveAttribute('src', /\/api\/uploads\/[0-9a-f]{32}\/(card|page)\.webp$/);
  await expect
    .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  const shownLogo = page.getByRole('img', { name: `${store.name} logo` });
  await expect(shownLogo).toHaveAttribute('src', /\/api\/uploads\/[0-9a-f]{32}\/logo\.png$/);
  await expect
    .poll(() => shownLogo.evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBe(512);
  await snap(page, 'uploads-2-storefront');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'uploads-3-storefront-phone');

  // The store's installable app carries the uploaded logo in its icons.
  const icon = await page.request.get(`/store/${store.slug}/icon-512.png`);
  expect(icon.status()).toBe(200);
  expect(await pixel(await icon.body(), 256, 256)).toEqual([255, 0, 255]);
  expect(dialogs).toEqual([]);
});
