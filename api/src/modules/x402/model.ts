// HTTP 402 (x402 protocol version 2) on the wire: the headers, the payment requirements we
// offer (the `exact` scheme on EVM: an EIP-3009 authorization of USDC) and the messages.
import * as v from 'valibot';

/** The protocol version we speak. */
export const X402_VERSION = 2;

/** Header names (x402 v2 HTTP transport). */
export const X402_HEADERS = {
  required: 'PAYMENT-REQUIRED',
  signature: 'PAYMENT-SIGNATURE',
  response: 'PAYMENT-RESPONSE',
} as const;

/** Seconds a payer has to settle the requirements it got (the authorization's validBefore). */
export const X402_MAX_TIMEOUT_SECONDS = 300;

/** Longest PAYMENT-SIGNATURE header we decode. */
export const MAX_SIGNATURE_HEADER = 8_192;

/** Largest upstream answer relayed (and kept for a replay). */
export const MAX_UPSTREAM_BYTES = 4 * 1024 * 1024;

/** The payable URL's path of a digital product (absolute once the route knows its origin). */
export function x402PathOf(productId: string): string {
  return `/api/x402/products/${productId}`;
}

/** The origin payable URLs are given under: PUBLIC_URL, or the one the request addressed. */
export function publicOrigin(config: { publicUrl?: string | undefined }, request: Request): string {
  return config.publicUrl ?? new URL(request.url).origin;
}

/** A product view with its payable URL made absolute. */
export function withX402Url<T extends { x402Url: string | null }>(product: T, origin: string): T {
  return product.x402Url ? { ...product, x402Url: `${origin}${product.x402Url}` } : product;
}

/** CAIP-2 id of an EVM chain (`eip155:8453` for Base). */
export function caip2Of(chainId: number): `eip155:${number}` {
  return `eip155:${chainId}`;
}

/** What the 402 and the settlement say (x402 error reasons where the spec has one). */
export const X402_MESSAGES = {
  notFound: 'Product not found',
  notDigital: 'This product is not sold over HTTP 402',
  badHeader: 'PAYMENT-SIGNATURE is not a base64 JSON x402 v2 payment payload',
  unsupported: 'Only x402 version 2, scheme exact, on this deployment’s network and USDC',
  unknownPayTo: 'payTo is not a deposit address offered for this resource',
  used: 'This deposit address was already paid: ask for new payment requirements',
  amount: 'The authorized amount is not the price',
  recipient: 'The authorization pays another address than payTo',
  signature: 'The authorization’s signature is not the payer’s',
  window: 'The authorization is not valid now (or expires before it can settle)',
  balance: 'The payer’s USDC balance is below the amount',
  nonce: 'The authorization’s nonce was already used',
  settleFailed: 'The payment did not settle',
  pending: 'The payment is not settled yet: send the same PAYMENT-SIGNATURE again',
  upstream: 'The resource failed after payment; the payment goes back to the payer',
  offersLimited: 'Too many payment requirements asked for from your network',
  payerLimited: 'Too many payments from this payer address',
} as const;

const hex = (bytes: number) =>
  v.pipe(v.string(), v.regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`)));
const uint = v.pipe(v.string(), v.regex(/^\d{1,78}$/));

/** The requirements of one way to pay (an entry of `accepts`). */
export const PaymentRequirementsSchema = v.object({
  scheme: v.pipe(v.string(), v.maxLength(32)),
  network: v.pipe(v.string(), v.maxLength(64)),
  amount: uint,
  asset: hex(20),
  payTo: hex(20),
  maxTimeoutSeconds: v.number(),
  extra: v.optional(v.record(v.string(), v.unknown())),
});
/** One way to pay. */
export type PaymentRequirements = v.InferOutput<typeof PaymentRequirementsSchema>;

/** The payload of PAYMENT-SIGNATURE for the `exact` EVM scheme with EIP-3009. */
export const PaymentPayloadSchema = v.object({
  x402Version: v.literal(X402_VERSION),
  resource: v.optional(v.unknown()),
  accepted: PaymentRequirementsSchema,
  payload: v.object({
    signature: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{130,2048}$/)),
    authorization: v.object({
      from: hex(20),
      to: hex(20),
      value: uint,
      validAfter: uint,
      validBefore: uint,
      nonce: hex(32),
    }),
  }),
  extensions: v.optional(v.unknown()),
});
/** A decoded PAYMENT-SIGNATURE. */
export type PaymentPayload = v.InferOutput<typeof PaymentPayloadSchema>;

/** Base64 of the UTF-8 JSON of `value` (the x402 header encoding). */
export function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** The payment payload of a PAYMENT-SIGNATURE header, or undefined when it is not one. */
export function decodePaymentSignature(header: string): PaymentPayload | undefined {
  if (header.length > MAX_SIGNATURE_HEADER || !/^[A-Za-z0-9+/]+=*$/.test(header)) return undefined;
  try {
    const parsed = v.safeParse(
      PaymentPayloadSchema,
      JSON.parse(Buffer.from(header, 'base64').toString('utf8')),
    );
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** The body of a facilitator's `/verify` and `/settle` (x402 v2 facilitator HTTP API). */
export const FacilitatorRequestSchema = v.object({
  x402Version: v.literal(X402_VERSION),
  paymentPayload: PaymentPayloadSchema,
  paymentRequirements: PaymentRequirementsSchema,
});
/** A facilitator request. */
export type FacilitatorRequest = v.InferOutput<typeof FacilitatorRequestSchema>;

/** Longest description of a payment asked for with POST /api/x402/pay-to. */
export const MAX_PAY_TO_DESCRIPTION = 120;

/** The product id of the one line of an order opened for a merchant's own x402 server. */
export const PAY_TO_ITEM_ID = 'x402-pay-to';

/** What a merchant's server sends to get a `payTo` for one request it charges. */
export const PayToRequestSchema = v.object({
  storeId: v.pipe(v.string(), v.maxLength(64)),
  /** The price in USDC (a decimal string, two places at most, as product prices). */
  amountUsdc: v.pipe(
    v.string(),
    v.maxLength(16),
    v.regex(/^\d{1,9}(\.\d{1,2})?$/, 'amountUsdc is a USDC amount such as "0.25"'),
  ),
  /** The URL of the resource it charges for (kept on the order). */
  resource: v.optional(v.pipe(v.string(), v.url(), v.maxLength(2_048))),
  /** What is sold (the order line's title). */
  description: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_PAY_TO_DESCRIPTION))),
});
/** A pay-to request. */
export type PayToRequest = v.InferOutput<typeof PayToRequestSchema>;

/** The answer of POST /api/x402/pay-to: one way to pay, with a fresh deposit address. */
export const PayToSchema = v.object({
  orderId: v.string(),
  scheme: v.literal('exact'),
  network: v.string(),
  amount: v.string(),
  asset: v.string(),
  payTo: v.string(),
  maxTimeoutSeconds: v.number(),
  extra: v.object({ name: v.string(), version: v.string() }),
});

/** The facilitator's `/supported`. */
export const SupportedSchema = v.object({
  kinds: v.array(v.object({ x402Version: v.number(), scheme: v.string(), network: v.string() })),
  extensions: v.array(v.string()),
  signers: v.record(v.string(), v.array(v.string())),
});

/** The facilitator's `/verify` answer. */
export const VerifyResponseSchema = v.object({
  isValid: v.boolean(),
  invalidReason: v.optional(v.string()),
  invalidMessage: v.optional(v.string()),
  payer: v.optional(v.string()),
});

/** The facilitator's `/settle` answer. */
export const SettleResponseSchema = v.object({
  success: v.boolean(),
  errorReason: v.optional(v.string()),
  errorMessage: v.optional(v.string()),
  payer: v.optional(v.string()),
  transaction: v.string(),
  network: v.string(),
  amount: v.optional(v.string()),
});
