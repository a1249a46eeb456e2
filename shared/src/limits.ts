// Caps on every string and list a stranger can send: one place for the API's validation and the
// forms' checks. Generous for real use (a long product description, a big order), small enough that
// no single request can make the database, a public list or a page heavy.
import * as v from 'valibot';

/** Longest text of each kind, in characters. */
export const TEXT_LIMITS = {
  /** Store names, product titles, item titles, an external store's name. */
  name: 120,
  /** Store and product descriptions. */
  description: 5_000,
  /** A person's name, street, city, ZIP code, phone. */
  addressField: 200,
  /** An email address (RFC 5321's path limit). */
  email: 254,
  /** Any URL we store (logo, image, domain, return and webhook URLs). */
  url: 2_048,
  /** An integrator's own order id. */
  externalOrderId: 200,
  /** A store slug. */
  slug: 64,
  /** The query of a signed universal-checkout link, sent back to be verified. */
  linkQuery: 16_384,
} as const;

/** Most lines one order (store or universal) may hold. */
export const MAX_ORDER_LINES = 100;

/** Default and largest page of a public list. */
export const PAGE_LIMITS = { default: 50, max: 100 } as const;

/** What a field is called in a "too long" message. */
export const LIMIT_MESSAGES = {
  tooLong: (label: string, max: number) =>
    `${label} must be at most ${max.toLocaleString('en-US')} characters`,
  tooManyLines: `An order can hold at most ${MAX_ORDER_LINES} different items`,
} as const;

/** A `maxLength` action with the "too long" message for `label`. */
export function maxChars(label: string, max: number) {
  return v.maxLength<string, number, string>(max, LIMIT_MESSAGES.tooLong(label, max));
}

/** An optional free-text field (may be null on the wire) of at most `max` characters. */
export function optionalCappedText(label: string, max: number) {
  return v.nullish(v.pipe(v.string(), maxChars(label, max)));
}

/** A list's opaque page cursor in a query string: at most `maxLength` URL-safe characters. */
export function cursorParam(maxLength: number) {
  return v.optional(
    v.pipe(
      v.string(),
      v.maxLength(maxLength, 'cursor is not valid'),
      v.regex(/^[\w-]+$/, 'cursor is not valid'),
    ),
  );
}

/** A list's page size in a query string: a whole number from 1 to `maxPage`. */
export function pageLimitParam(maxPage: number) {
  const message = `limit must be a whole number from 1 to ${maxPage}`;
  return v.optional(
    v.pipe(
      v.string(),
      v.maxLength(3, message),
      v.regex(/^\d+$/, message),
      v.transform(Number),
      v.minValue(1, message),
      v.maxValue(maxPage, message),
    ),
  );
}
