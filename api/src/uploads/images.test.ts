// An SVG logo's text is drawn with the fonts shipped with the product: "JT" in a circle comes out
// as a circle with letters on it, on any machine (before, the letters vanished without fonts).
import { describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { processImage } from './images.ts';

const circle = (text: string, family: string) =>
  new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
      <circle cx="50" cy="50" r="48" fill="#4f46e5"/>
      ${text ? `<text x="50" y="64" font-family="${family}" font-size="40" font-weight="bold" text-anchor="middle" fill="#ffffff">${text}</text>` : ''}
    </svg>`,
  );

/** The share of pixels that are nearly white in the logo's drawn variant. */
async function whiteShare(svg: Uint8Array): Promise<number> {
  const [logo] = await processImage(svg, 'logo');
  if (!logo) throw new Error('no variant');
  const { data, info } = await sharp(logo.body).raw().toBuffer({ resolveWithObject: true });
  let white = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if ((data[i] ?? 0) > 230 && (data[i + 1] ?? 0) > 230 && (data[i + 2] ?? 0) > 230) white += 1;
  return white / (data.length / info.channels);
}

describe('SVG logos with text', () => {
  test('the letters are drawn, in a named family, a generic one and one the product lacks', async () => {
    const bare = await whiteShare(circle('', 'sans-serif'));
    expect(bare).toBeLessThan(0.001);
    for (const family of ['sans-serif', 'serif', 'Helvetica, Arial']) {
      const share = await whiteShare(circle('JT', family));
      expect(share, family).toBeGreaterThan(0.02);
    }
  });
});
