// A store's install icons, drawn on the server: its logo on its primary colour, as PNG (resvg).
// An emoji logo is drawn from Twemoji's SVGs (graphics by Twitter and contributors, CC-BY 4.0),
// a short text logo in Inter SemiBold, an uploaded logo (our own object store) as its picture; a
// picture logo elsewhere (a URL) gives the store's initials instead, since the server does not
// fetch strangers' URLs.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { isUploadPath } from '@store/shared';
import { type ManifestStore, type StoreIcon, storeColour } from './manifest.ts';

const require = createRequire(import.meta.url);
const TWEMOJI_DIR = dirname(require.resolve('@twemoji/svg/package.json'));
const FONT_FILE = require.resolve('@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf');
/** Bumped when the drawing changes, so installed apps fetch the new icons. */
const STYLE_VERSION = 1;

/** What an icon shows: emoji drawn from Twemoji, text, or an uploaded logo (its path). */
export type IconMark =
  | { kind: 'emoji'; files: string[] }
  | { kind: 'text'; text: string }
  | { kind: 'image'; path: string };

/** An uploaded logo (`/api/uploads/{id}/logo.png`): icons are drawn from it. */
const UPLOADED_LOGO = /\/logo\.png$/;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
// Note: the scripts Inter draws; a letter of another script would come out blank.
const DRAWABLE = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}&$#@+!?]$/u;

/** The Twemoji file of one emoji (its code points in hex; FE0F dropped unless it has a ZWJ). */
function twemojiFile(emoji: string): string | undefined {
  const points = [...emoji].map((c) => (c.codePointAt(0) ?? 0).toString(16));
  const withoutVs = points.filter((p) => p !== 'fe0f');
  const candidates = emoji.includes('\u200d') ? [points, withoutVs] : [withoutVs, points];
  for (const candidate of candidates) {
    const file = join(TWEMOJI_DIR, `${candidate.join('-')}.svg`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Up to two initials of the store's name that the font draws, else "$". */
export function initials(name: string): string {
  const letters = name
    .normalize('NFC')
    .split(/[\s\-_/.,:;&+]+/u)
    .map((word) => graphemes(word).find((g) => /^[\p{L}\p{N}]$/u.test(g)))
    .filter((g): g is string => g !== undefined && DRAWABLE.test(g))
    .slice(0, 2);
  return letters.length > 0 ? letters.join('').toUpperCase() : '$';
}

/**
 * What the store's icon shows: its emoji logo (one or two), its text logo (up to three letters
 * the font draws), else its initials (a picture logo too).
 */
export function iconMark(store: Pick<ManifestStore, 'name' | 'logoUrl'>): IconMark {
  const logo = store.logoUrl?.trim().normalize('NFC') ?? '';
  if (isUploadPath(logo) && UPLOADED_LOGO.test(logo)) return { kind: 'image', path: logo };
  const parts = graphemes(logo);
  if (parts.length >= 1 && parts.length <= 2 && parts.every((p) => EMOJI.test(p))) {
    const files = parts.map(twemojiFile);
    if (files.every((file) => file !== undefined)) return { kind: 'emoji', files };
  }
  if (parts.length >= 1 && parts.length <= 3 && parts.every((p) => DRAWABLE.test(p)))
    return { kind: 'text', text: logo };
  return { kind: 'text', text: initials(store.name) };
}

/** Changes whenever any icon of the store would look different. */
export function iconVersion(store: Pick<ManifestStore, 'name' | 'logoUrl' | 'primaryColor'>) {
  const input = JSON.stringify([STYLE_VERSION, iconMark(store), storeColour(store)]);
  return createHash('sha256').update(input).digest('hex').slice(0, 16);
}

/** Dark ink on a light colour, white on a dark one. */
function inkOn(hex: string): string {
  const full = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.45 ? '#0b1020' : '#ffffff';
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.codePointAt(0)};`);

/** The icon as SVG: 1000 units square. */
export function iconSvg(
  store: Pick<ManifestStore, 'name' | 'logoUrl' | 'primaryColor'>,
  icon: StoreIcon,
  /** The uploaded logo's PNG, when the mark is one (without it: the store's initials). */
  logoPng?: Uint8Array,
) {
  const colour = storeColour(store);
  const maskable = icon.purpose === 'maskable';
  // Note: a maskable icon is cropped by the platform to a circle of 40% radius at the least, so
  // its mark stays inside it; an "any" icon brings its own rounded square.
  const background = maskable
    ? `<rect width="1000" height="1000" fill="${colour}"/>`
    : `<rect width="1000" height="1000" rx="220" fill="${colour}"/>`;
  const found = iconMark(store);
  const mark: IconMark =
    found.kind === 'image' && !logoPng ? { kind: 'text', text: initials(store.name) } : found;
  let content: string;
  if (mark.kind === 'image' && logoPng) {
    // Note: the logo was re-encoded by the server at upload (a PNG it made), drawn inside the
    // maskable safe zone or the rounded square's margin.
    const side = maskable ? 560 : 760;
    const at = (1000 - side) / 2;
    content = `<image x="${at}" y="${at}" width="${side}" height="${side}" preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,${Buffer.from(logoPng).toString('base64')}"/>`;
  } else if (mark.kind === 'emoji') {
    const count = mark.files.length;
    const side = (maskable ? 500 : 600) / (count === 1 ? 1 : 1.7);
    const gap = side * 0.1;
    const width = count * side + (count - 1) * gap;
    content = mark.files
      .map((file, index) => {
        const x = (1000 - width) / 2 + index * (side + gap);
        const y = (1000 - side) / 2;
        return readFileSync(file, 'utf8').replace(
          /^<svg[^>]*>/,
          `<svg x="${x}" y="${y}" width="${side}" height="${side}" viewBox="0 0 36 36">`,
        );
      })
      .join('');
  } else {
    const text = mark.kind === 'text' ? mark.text : initials(store.name);
    const length = graphemes(text).length;
    const fontSize = [500, 420, 300][length - 1] ?? 300;
    content = `<text x="500" y="500" text-anchor="middle" dominant-baseline="central" font-family="Inter" font-weight="600" font-size="${
      maskable ? fontSize * 0.8 : fontSize
    }" fill="${inkOn(colour)}">${escapeXml(text)}</text>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">${background}${content}</svg>`;
}

const cache = new Map<string, Uint8Array>();
const CACHE_ENTRIES = 256;

/** The icon as a PNG of `icon.size` pixels (kept in memory for the next request). */
export function renderStoreIcon(
  store: Pick<ManifestStore, 'name' | 'logoUrl' | 'primaryColor'>,
  icon: StoreIcon,
  logoPng?: Uint8Array,
): Uint8Array {
  const key = `${icon.file}|${iconVersion(store)}|${logoPng ? 'logo' : 'none'}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const png = new Resvg(iconSvg(store, icon, logoPng), {
    fitTo: { mode: 'width', value: icon.size },
    font: { fontFiles: [FONT_FILE], loadSystemFonts: false, defaultFontFamily: 'Inter' },
  })
    .render()
    .asPng();
  cache.set(key, png);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return png;
}
