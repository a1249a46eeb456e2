// Uploaded images, checked by what their bytes are and re-encoded by sharp (libvips) into the sizes
// the pages use, so nothing a merchant uploads is ever served as it came: an SVG logo is drawn to
// PNG (resvg) after refusing any link to another file, so it can never run script or read the disk,
// and any filter effect, whose cost a few bytes can make huge. Note: the API never draws or
// decodes an upload itself: it runs `processImage` in a child process with a time and memory limit
// (render-process.ts), after the cheap checks of `checkUpload`.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import {
  type ImageFormat,
  UPLOAD_KINDS,
  UPLOAD_MESSAGES,
  type UploadKind,
} from '@store/shared/uploads';
import sharp from 'sharp';
import { AppError } from '../http/errors.ts';

/** One size of an upload, as stored. */
export interface ImageVariant {
  name: 'card' | 'page' | 'logo';
  ext: 'webp' | 'png';
  contentType: string;
  body: Uint8Array;
}

/** The sizes each kind is served in (longest side, pixels). */
export const VARIANT_SIZES = { card: 480, page: 1200, logo: 512 } as const;

/** At most this many pixels are decoded (a small file may claim a huge canvas). */
const MAX_INPUT_PIXELS = 40_000_000;

const invalid = (message: string) => new AppError('validation_failed', message);

/** What the bytes are, by their signature; SVG by its first element. Null for anything else. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  const starts = (...signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === 'WEBP')
    return 'webp';
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.slice(0, 4096));
  // Note: an XML declaration, comments and a doctype may come before the root element.
  const rest = head
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/^(\s*<!--[\s\S]*?-->)+/, '')
    .replace(/^\s*<!DOCTYPE svg[^>[]*>/i, '');
  return /^\s*<svg[\s>]/.test(rest) ? 'svg' : null;
}

/**
 * Refuses an SVG that could reach outside itself: scripts, event handlers, foreign objects,
 * entities, and any link or url() that is not to an element of the same file.
 */
export function checkSvgIsSelfContained(svg: string): void {
  const unsafe = [
    /<script/i,
    /<foreignObject/i,
    /<!ENTITY/i,
    /\son[a-z]+\s*=/i,
    /href\s*=\s*["']\s*(?!#)/i,
    /url\(\s*["']?\s*(?!#)/i,
    /@import/i,
  ];
  if (unsafe.some((pattern) => pattern.test(svg))) throw invalid(UPLOAD_MESSAGES.unsafeSvg);
}

/**
 * Refuses an SVG with filter effects: a `<filter>` element, a filter primitive (`<feMorphology>`,
 * `<feGaussianBlur>`, …, with or without a namespace prefix) or a `filter` attribute or CSS
 * property (which also takes the shorthand functions blur() and drop-shadow()). Note: their cost
 * grows with their parameters (feMorphology's with the square of its radius: 199 bytes kept one
 * core busy for 16 seconds); a logo needs none of them.
 */
export function checkSvgHasNoFilters(svg: string): void {
  const filters = [
    /<(?:[\w.-]+:)?filter[\s/>]/i,
    /<(?:[\w.-]+:)?fe[a-z]+[\s/>]/i,
    /\bfilter\s*[=:]/i,
  ];
  if (filters.some((pattern) => pattern.test(svg))) throw invalid(UPLOAD_MESSAGES.svgFilter);
}

/**
 * The fonts an SVG logo's text is drawn with: the DejaVu families shipped with the product (never
 * the machine's, which differ between hosts and may be none), for sans-serif, serif and monospace
 * and any family the logo names that is not here.
 */
const FONT_DIR = join(
  dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
const SVG_FONTS: ResvgRenderOptions['font'] = {
  loadSystemFonts: false,
  fontFiles: [
    'DejaVuSans.ttf',
    'DejaVuSans-Bold.ttf',
    'DejaVuSans-Oblique.ttf',
    'DejaVuSans-BoldOblique.ttf',
    'DejaVuSerif.ttf',
    'DejaVuSerif-Bold.ttf',
    'DejaVuSansMono.ttf',
  ].map((file) => join(FONT_DIR, file)),
  defaultFontFamily: 'DejaVu Sans',
  sansSerifFamily: 'DejaVu Sans',
  serifFamily: 'DejaVu Serif',
  monospaceFamily: 'DejaVu Sans Mono',
};

/** Longest side of a drawn SVG logo, in pixels. */
const SVG_SIDE = 1024;
/** A logo wider or taller than this many times its other side is no logo (and a pixel bomb). */
const MAX_SVG_ASPECT = 8;
/** Most `<use>` references an SVG logo may hold (each can copy a whole subtree). */
const MAX_SVG_USES = 32;

/** The checks of an SVG's text: self-contained, without filters, few `<use>` copies. */
function checkSvg(svg: string): void {
  checkSvgIsSelfContained(svg);
  checkSvgHasNoFilters(svg);
  if ((svg.match(/<use[\s>/]/gi)?.length ?? 0) > MAX_SVG_USES)
    throw invalid(UPLOAD_MESSAGES.unsafeSvg);
}

/**
 * An SVG (`checkSvg` passed) drawn to a PNG of at most 1024 pixels on its longest side. Note: its
 * own size is read first and the drawing fitted to its longest side, so a thin viewBox cannot make
 * a huge canvas.
 */
function rasterizeSvg(bytes: Uint8Array): Uint8Array {
  const svg = new TextDecoder().decode(bytes);
  let resvg: Resvg;
  try {
    resvg = new Resvg(svg, { font: SVG_FONTS });
  } catch {
    throw invalid(UPLOAD_MESSAGES.unreadable);
  }
  const { width, height } = resvg;
  if (!(width > 0 && height > 0)) throw invalid(UPLOAD_MESSAGES.unreadable);
  if (Math.max(width, height) / Math.min(width, height) > MAX_SVG_ASPECT)
    throw invalid(UPLOAD_MESSAGES.svgShape);
  try {
    const fitted = new Resvg(svg, {
      fitTo:
        width >= height ? { mode: 'width', value: SVG_SIDE } : { mode: 'height', value: SVG_SIDE },
      font: SVG_FONTS,
    });
    return fitted.render().asPng();
  } catch {
    throw invalid(UPLOAD_MESSAGES.unreadable);
  }
}

/**
 * The checks of an upload of `kind` that need no decoding: its size, its type by content and, for
 * an SVG, what its text may hold. Its format.
 */
export function checkUpload(bytes: Uint8Array, kind: UploadKind): ImageFormat {
  const rules = UPLOAD_KINDS[kind];
  if (bytes.length === 0) throw invalid(UPLOAD_MESSAGES.empty);
  if (bytes.length > rules.maxBytes) throw new AppError('payload_too_large', rules.tooLarge);
  const format = sniffImageFormat(bytes);
  if (!format || !(rules.formats as readonly string[]).includes(format))
    throw new AppError('unsupported_media_type', rules.invalid);
  if (format === 'svg') checkSvg(new TextDecoder().decode(bytes));
  return format;
}

/**
 * Checks an upload of `kind` (`checkUpload`) and makes its served sizes: a product picture as WebP
 * for cards and the product page, a logo as a 512-pixel PNG (transparency kept).
 */
export async function processImage(bytes: Uint8Array, kind: UploadKind): Promise<ImageVariant[]> {
  const format = checkUpload(bytes, kind);
  const source = format === 'svg' ? rasterizeSvg(bytes) : bytes;
  const image = () =>
    // Note: rotate() applies the EXIF orientation (a phone's portrait photo stays upright); the
    // output carries no metadata (no location from a phone's camera).
    sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
  try {
    const meta = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw invalid(UPLOAD_MESSAGES.unreadable);
    if (kind === 'logo') {
      const side = VARIANT_SIZES.logo;
      const body = await image()
        .resize(side, side, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      return [{ name: 'logo', ext: 'png', contentType: 'image/png', body }];
    }
    const sized = async (name: 'card' | 'page') => ({
      name,
      ext: 'webp' as const,
      contentType: 'image/webp',
      body: await image()
        .resize(VARIANT_SIZES[name], VARIANT_SIZES[name], {
          fit: 'inside',
          withoutEnlargement: true,
        })
        .webp({ quality: 82 })
        .toBuffer(),
    });
    return [await sized('card'), await sized('page')];
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(message)) throw invalid(UPLOAD_MESSAGES.tooManyPixels);
    // Note: what the child process's memory limit (render-process.ts) makes libvips answer.
    if (/out of memory/i.test(message)) throw invalid(UPLOAD_MESSAGES.tooComplex);
    throw invalid(UPLOAD_MESSAGES.unreadable);
  }
}
