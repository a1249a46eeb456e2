// Reads a QR code the way a phone's camera would: from a screenshot of what the browser drew.
import { expect, type Locator } from '@playwright/test';
import jsQR from 'jsqr';

/**
 * The text of the QR code drawn in `image`: the element is screenshotted as rendered, its PNG is
 * turned into pixels by the page's own canvas, and jsQR decodes them. Fails when no code is found.
 */
export async function decodeQr(image: Locator): Promise<string> {
  await expect(image).toBeVisible();
  const png = await image.screenshot();
  const pixels = await image.page().evaluate(async (base64) => {
    // An <img> (data: images are allowed by the page's policy, a fetch of one may not be).
    const bitmap = new Image();
    bitmap.src = `data:image/png;base64,${base64}`;
    await bitmap.decode();
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas');
    context.drawImage(bitmap, 0, 0);
    const data = context.getImageData(0, 0, bitmap.width, bitmap.height);
    return { width: data.width, height: data.height, rgba: Array.from(data.data) };
  }, png.toString('base64'));
  const code = jsQR(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height);
  if (!code) throw new Error('no QR code could be read from the image');
  return code.data;
}
