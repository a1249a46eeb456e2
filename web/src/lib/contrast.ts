// Text contrast (WCAG 2.x): the contrast ratio of two colours, and a merchant colour darkened or
// lightened just enough to be readable as text on the page's backgrounds (AA: 4.5:1).

/** WCAG AA minimum contrast for body text. */
export const AA_TEXT_CONTRAST = 4.5;

type Rgb = readonly [number, number, number];

/** #abc or #aabbcc as 0-255 channels; undefined for anything else. */
export function parseHexColour(hex: string): Rgb | undefined {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) return undefined;
  const digits =
    match[1].length === 3 ? [...match[1]].map((digit) => digit + digit).join('') : match[1];
  return [0, 2, 4].map((at) => Number.parseInt(digits.slice(at, at + 2), 16)) as unknown as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two hex colours (1 to 21); 1 when either is not a hex colour. */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [parseHexColour(a), parseHexColour(b)];
  if (!x || !y) return 1;
  const [light, dark] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * `colour` as text on every one of `backgrounds`: unchanged when it already reaches `minimum`
 * against each, else mixed towards black (light backgrounds) or white (dark ones) in 1 % steps
 * until it does, so the merchant's hue stays. Note: pure black or white always gets there on
 * the page's own backgrounds.
 */
export function readableTextColour(
  colour: string,
  backgrounds: readonly string[],
  minimum: number = AA_TEXT_CONTRAST,
): string {
  const rgb = parseHexColour(colour);
  if (!rgb) return colour;
  const worst = (hex: string) => Math.min(...backgrounds.map((bg) => contrastRatio(hex, bg)));
  if (worst(colour) >= minimum) return colour;
  const backgroundLuminance =
    backgrounds.reduce((sum, bg) => sum + luminance(parseHexColour(bg) ?? [0, 0, 0]), 0) /
    backgrounds.length;
  const target = backgroundLuminance > 0.18 ? 0 : 255;
  for (let step = 1; step <= 100; step++) {
    const t = step / 100;
    const mixed = toHex(rgb.map((channel) => channel + (target - channel) * t) as unknown as Rgb);
    if (worst(mixed) >= minimum) return mixed;
  }
  return toHex([target, target, target]);
}

/** White or near-black, whichever reads better on `background` (text on a merchant's button). */
export function textOn(background: string, dark = '#0f172a', light = '#ffffff'): string {
  return contrastRatio(light, background) >= AA_TEXT_CONTRAST ||
    contrastRatio(light, background) >= contrastRatio(dark, background)
    ? light
    : dark;
}
