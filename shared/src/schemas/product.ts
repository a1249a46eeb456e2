// Product schemas: the Add New Product form (POST /api/products) and the inventory input rule
// (the product as the API answers it is ProductSchema, in responses.ts).
import * as v from 'valibot';
import { DEFAULT_INVENTORY, MAX_INVENTORY } from '../constants.ts';
import { optionalCappedText, TEXT_LIMITS } from '../limits.ts';
import { PRODUCT_FORM_MESSAGES as M } from '../messages.ts';
import { isPriceString, tryParseUsdc } from '../money.ts';
import { missingAsEmpty, requiredCappedText } from './common.ts';

/** Parses the inventory text field: leading digits as an integer, anything non-numeric (or negative) 0. */
export function parseInventoryInput(input: string): number {
  const match = /^\s*\+?(\d+)/.exec(input);
  if (!match?.[1]) return DEFAULT_INVENTORY;
  const digits = match[1].replace(/^0+(?=\d)/, '');
  // Note: compare as text first so a 30-digit input cannot lose precision; clamp to Postgres integer.
  if (digits.length > String(MAX_INVENTORY).length) return MAX_INVENTORY;
  return Math.min(Number(digits), MAX_INVENTORY);
}

/** True when the price string parses to an amount greater than 0. */
function isPositiveAmount(input: string): boolean {
  const amount = tryParseUsdc(input);
  return amount !== undefined && amount > 0n;
}

/** Product price: required, then a positive number, then decimal(10,2). */
export const ProductPriceSchema = v.pipe(
  missingAsEmpty(M.priceRequired),
  v.trim(),
  v.nonEmpty(M.priceRequired),
  v.check(isPositiveAmount, M.pricePositive),
  v.check(isPriceString, M.pricePrecision),
);

/**
 * A product's price cap (the merchant's ceiling on its price, against a mistyped price): a positive
 * amount of decimal(10,2), as the price; null or absent: none.
 */
export const PriceCapSchema = v.pipe(
  v.string(M.capPositive),
  v.trim(),
  v.check(isPositiveAmount, M.capPositive),
  v.check(isPriceString, M.capPrecision),
);

/** Whether `price` is above `cap` (a cap of null or '' is none); both checked amounts. */
export function isAboveCap(price: string, cap: string | null | undefined): boolean {
  if (!cap) return false;
  const [amount, ceiling] = [tryParseUsdc(price), tryParseUsdc(cap)];
  return amount !== undefined && ceiling !== undefined && amount > ceiling;
}

/** Inventory on the wire: a non-negative integer. */
export const InventorySchema = v.pipe(
  v.number(M.inventory),
  v.integer(M.inventory),
  v.minValue(0, M.inventory),
  v.maxValue(MAX_INVENTORY, M.inventory),
);

/** Longest header name and value of an API resource's secret header. */
export const DIGITAL_LIMITS = { headerName: 64, headerValue: 1_024 } as const;

/** Messages of the digital product fields. */
export const DIGITAL_PRODUCT_MESSAGES = {
  upstreamUrl: 'The API URL must be an http(s) URL',
  upstreamHttps: 'The API URL must use https and hold no user name or password',
  headerName: 'The header name may hold letters, digits and - only',
  headerPair: 'Give the secret header both a name and a value, or neither',
} as const;

/**
 * A digital product sold per request over HTTP 402 (x402): an API resource of the merchant's,
 * reached at `upstreamUrl` with a secret header we add (the merchant's API checks it, so only
 * paid requests get through). The secret's value is write-only: responses only say it is set.
 */
export const DigitalProductInputSchema = v.pipe(
  v.object({
    kind: v.literal('api'),
    upstreamUrl: v.pipe(
      v.string(DIGITAL_PRODUCT_MESSAGES.upstreamUrl),
      v.trim(),
      v.maxLength(TEXT_LIMITS.url, `The API URL is longer than ${TEXT_LIMITS.url} characters`),
      v.check(
        (url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol),
        DIGITAL_PRODUCT_MESSAGES.upstreamUrl,
      ),
    ),
    secretHeaderName: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.trim(),
          v.maxLength(DIGITAL_LIMITS.headerName, DIGITAL_PRODUCT_MESSAGES.headerName),
          v.regex(/^[A-Za-z0-9-]+$/, DIGITAL_PRODUCT_MESSAGES.headerName),
        ),
      ),
    ),
    /** Absent on an edit: the stored value is kept. */
    secretHeaderValue: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.maxLength(
            DIGITAL_LIMITS.headerValue,
            `The header value is longer than ${DIGITAL_LIMITS.headerValue} characters`,
          ),
          v.regex(/^[\t\x20-\x7e]*$/, 'The header value may hold printable ASCII only'),
        ),
      ),
    ),
  }),
  v.check(
    (d) => !(d.secretHeaderValue && !d.secretHeaderName),
    DIGITAL_PRODUCT_MESSAGES.headerPair,
  ),
);
/** A digital product's settings as the merchant sends them. */
export type DigitalProductInput = v.InferOutput<typeof DigitalProductInputSchema>;

/**
 * A file sold as a digital product: what the merchant may upload (PUT /api/products/{id}/file, the
 * file's own bytes as the body) and how it is delivered once paid (a signed link that expires, or
 * the x402 answer itself).
 */
export const DIGITAL_FILE = {
  /** Largest file: 20 MB (an e-book, a PDF, a sample pack, a short video). */
  maxBytes: 20 * 1024 * 1024,
  /** Content types accepted, with the start their bytes must have (checked by content). */
  types: [
    'application/pdf',
    'application/zip',
    'application/epub+zip',
    'application/json',
    'text/plain',
    'text/csv',
    'text/markdown',
    'image/png',
    'image/jpeg',
    'image/webp',
    'audio/mpeg',
    'video/mp4',
  ] as const,
  /** Longest file name kept (given as `?name=` on upload). */
  maxName: 120,
  /** Minutes a download link stays valid. */
  linkMinutes: 60,
  hint: 'PDF, ZIP, EPUB, text, CSV, JSON, PNG, JPG, WebP, MP3 or MP4, max 20MB',
} as const;
/** A content type a file product may have. */
export type DigitalFileType = (typeof DIGITAL_FILE.types)[number];

/** Texts of file products. */
export const DIGITAL_FILE_MESSAGES = {
  tooLarge: 'The file must be at most 20MB',
  empty: 'The file is empty',
  type: `The file must be one of: ${DIGITAL_FILE.hint.replace(/, max.*$/, '')} (sent with its Content-Type)`,
  content: 'The file’s content does not match its Content-Type',
  name: 'The file name may hold letters, digits, spaces and . _ - ( ) only, at most 120 characters',
  linkExpired: 'This download link has expired: open your order again for a new one',
  linkInvalid: 'This download link is not valid',
  notPaid: 'The order is not paid',
  gone: 'This file is no longer available',
} as const;

/** A digital product's settings as the API returns them (never the secret's value). */
export const DigitalProductSchema = v.variant('kind', [
  v.object({
    kind: v.literal('api'),
    upstreamUrl: v.string(),
    secretHeaderName: v.nullable(v.string()),
    /** Whether a secret value is stored for the header. */
    hasSecret: v.boolean(),
  }),
  v.object({
    kind: v.literal('file'),
    fileName: v.string(),
    fileType: v.string(),
    fileBytes: v.number(),
  }),
]);
/** A digital product's settings as returned. */
export type DigitalProduct = v.InferOutput<typeof DigitalProductSchema>;

/**
 * Body of POST /api/products (Add New Product), with the defaults of docs/rules.md#product-form.
 */
export const CreateProductSchema = v.object({
  title: requiredCappedText(M.titleRequired, 'Title', TEXT_LIMITS.name),
  description: optionalCappedText('Description', TEXT_LIMITS.description),
  priceUsdc: ProductPriceSchema,
  imageUrl: optionalCappedText('Image URL', TEXT_LIMITS.url),
  inventory: v.optional(InventorySchema, DEFAULT_INVENTORY),
  // Note: whether `inventory` counts units; unset, it does when the inventory is above 0 (the old
  // "0 means untracked" for a new product). A tracked product at 0 is sold out, not unlimited.
  trackInventory: v.optional(v.boolean()),
  isPublished: v.optional(v.boolean(), true),
  storeId: requiredCappedText(M.storeIdRequired, 'Store', TEXT_LIMITS.slug),
  /** A digital product (an API resource sold per request over HTTP 402); null: a physical one. */
  digital: v.optional(v.nullable(DigitalProductInputSchema)),
  /** The merchant's ceiling on the price (a sanity check against a mistyped price); null: none. */
  maxPriceUsdc: v.optional(v.nullable(PriceCapSchema)),
});
/** Input of the product form. */
export type CreateProductInput = v.InferInput<typeof CreateProductSchema>;
/** A validated product creation body. */
export type CreateProduct = v.InferOutput<typeof CreateProductSchema>;

/** Body of PUT /api/products/{id}: any subset of the form's fields, same rules, no defaults; the store cannot change. */
export const UpdateProductSchema = v.partial(
  v.object({
    title: CreateProductSchema.entries.title,
    description: CreateProductSchema.entries.description,
    priceUsdc: ProductPriceSchema,
    imageUrl: CreateProductSchema.entries.imageUrl,
    inventory: InventorySchema,
    trackInventory: v.boolean(),
    isPublished: v.boolean(),
    digital: v.nullable(DigitalProductInputSchema),
    maxPriceUsdc: v.nullable(PriceCapSchema),
  }),
);
/** A validated product update body. */
export type UpdateProduct = v.InferOutput<typeof UpdateProductSchema>;
