// Image uploads (store logos, product pictures): what each kind accepts (the upload hints), the
// sizes the server makes of it, and the paths it serves them under.
import * as v from 'valibot';
import { IMAGE_HINTS } from './constants.ts';

/** Image formats, by what the bytes are (never by a file's name). */
export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'svg';

/** What each kind of upload accepts. */
export const UPLOAD_KINDS = {
  logo: {
    formats: ['png', 'jpeg', 'svg'] as const,
    // Note: the limits the forms' hints state (IMAGE_HINTS).
    maxBytes: IMAGE_HINTS.logo.maxBytes,
    hint: 'PNG, JPG or SVG, max 2MB',
    invalid: 'The logo must be a PNG, JPG or SVG image',
    tooLarge: 'The logo must be at most 2MB',
  },
  product: {
    formats: ['png', 'jpeg', 'webp'] as const,
    maxBytes: IMAGE_HINTS.product.maxBytes,
    hint: 'PNG, JPG or WebP, max 5MB',
    invalid: 'The image must be a PNG, JPG or WebP picture',
    tooLarge: 'The image must be at most 5MB',
  },
} as const;

/** A kind of upload. */
export type UploadKind = keyof typeof UPLOAD_KINDS;

/** The largest upload of any kind (the API's body cap for upload requests). */
export const MAX_UPLOAD_BYTES = UPLOAD_KINDS.product.maxBytes;

/** Other texts of uploads. */
export const UPLOAD_MESSAGES = {
  empty: 'Choose an image to upload',
  unreadable: 'This image could not be read; it may be damaged',
  tooManyPixels: 'The image is too large (at most 40 megapixels)',
  unsafeSvg: 'SVG logos may not link to other files or carry scripts',
  svgShape: 'The logo is too narrow: its width and height may differ at most 8 times',
  svgFilter:
    'SVG logos may not use filter effects (blur, shadows and the like); remove them or upload a PNG',
  tooComplex:
    'This image takes too long or too much memory to process; upload a simpler or smaller one',
  busy: 'Many images are being processed right now; try again in a minute',
} as const;

/** What the server serves of an upload: the path of the size a page shows. */
const UPLOAD_PATH = /^\/api\/uploads\/([0-9a-f]{32})\/(card|page|logo)\.(webp|png)$/;

/** True for the path of an uploaded image (`/api/uploads/{id}/{size}.{ext}`). */
export function isUploadPath(value: string | null | undefined): boolean {
  return typeof value === 'string' && UPLOAD_PATH.test(value);
}

/** The answer to an upload: the paths of its sizes (`url` is the one forms store). */
export const UploadResponseSchema = v.object({
  id: v.string(),
  kind: v.picklist(['logo', 'product']),
  url: v.string(),
  sizes: v.record(v.string(), v.string()),
});
/** The answer to an upload. */
export type UploadResponse = v.InferOutput<typeof UploadResponseSchema>;
