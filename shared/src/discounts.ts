// Discount codes (docs/rules.md#discount-codes): a store's codes, percentage or fixed USDC, with an
// expiry, usage limits (in all and per customer email), a minimum order and optionally the products
// they apply to. What a code takes off an order is computed here once, for the checkout's summary
// and the API's pricing alike (totals.ts applies it before tax).
import * as v from 'valibot';
import { maxChars } from './limits.ts';
import { formatUsdc, multiplyUsdc, parseUsdc, percentOf, sumUsdc, type Usdc } from './money.ts';
import { MoneyStringSchema } from './schemas/common.ts';

/** Percentage off the eligible lines, or a fixed USDC amount off them. */
export const DISCOUNT_KINDS = ['percent', 'fixed'] as const;
/** A kind of discount. */
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** Caps of the discount routes. */
export const DISCOUNT_LIMITS = {
  /** Characters of a code. */
  code: 32,
  /** Products one code may be limited to. */
  products: 100,
  /** Codes one store may have. */
  perStore: 500,
  /** Largest usage limit. */
  maxUses: 1_000_000,
} as const;

/**
 * Minutes a pending order placed with a code counts as one of its uses: the time its shopper has to
 * pay before the use is given back (a paid order counts for good).
 */
export const DISCOUNT_HOLD_MINUTES = 30;

/** What a shopper or merchant reads when a code is refused or a form is wrong. */
export const DISCOUNT_MESSAGES = {
  unknown: 'This discount code is not valid for this store',
  inactive: 'This discount code is no longer active',
  expired: 'This discount code has expired',
  usedUp: 'This discount code has reached its usage limit',
  usedByCustomer: 'You have already used this discount code the most times allowed',
  minimum: (minimumUsdc: string) =>
    `This discount code needs an order of at least ${minimumUsdc} USDC (before shipping and tax)`,
  noProducts: 'This discount code does not apply to any item in your cart',
  code: `A code is 3 to ${DISCOUNT_LIMITS.code} letters, digits, hyphens or underscores`,
  kind: 'Choose a percentage or a fixed amount',
  percent: 'The percentage must be from 0.01 to 100',
  amount: 'The amount off must be more than 0.00 USDC',
  maxUses: `A usage limit is a whole number from 1 to ${DISCOUNT_LIMITS.maxUses.toLocaleString('en-US')}`,
  products: `A code can name at most ${DISCOUNT_LIMITS.products} products`,
  unknownProduct: 'A chosen product is not one of this store’s products',
  duplicate: 'This store already has a code with that name',
  tooMany: `A store can have at most ${DISCOUNT_LIMITS.perStore} discount codes`,
  notFound: 'Discount code not found',
  expiresAt: 'The expiry must be a date and time',
} as const;

/** A code as shoppers type it: trimmed and upper-cased (codes are case-insensitive). */
export const DiscountCodeSchema = v.pipe(
  v.string(DISCOUNT_MESSAGES.code),
  v.trim(),
  maxChars('Discount code', DISCOUNT_LIMITS.code),
  v.toUpperCase(),
  v.regex(/^[A-Z0-9_-]{3,32}$/, DISCOUNT_MESSAGES.code),
);

const usageLimit = v.nullish(
  v.pipe(
    v.number(DISCOUNT_MESSAGES.maxUses),
    v.integer(DISCOUNT_MESSAGES.maxUses),
    v.minValue(1, DISCOUNT_MESSAGES.maxUses),
    v.maxValue(DISCOUNT_LIMITS.maxUses, DISCOUNT_MESSAGES.maxUses),
  ),
);

const uuid = v.pipe(v.string(), v.maxLength(36), v.uuid(DISCOUNT_MESSAGES.unknownProduct));

/** Body of POST and PUT /api/stores/{id}/discounts[/{discountId}]: a whole code. */
export const DiscountInputSchema = v.pipe(
  v.object({
    code: DiscountCodeSchema,
    kind: v.picklist(DISCOUNT_KINDS, DISCOUNT_MESSAGES.kind),
    /** Basis points off (1000 = 10%), for `percent`. */
    percentBps: v.nullish(
      v.pipe(
        v.number(DISCOUNT_MESSAGES.percent),
        v.integer(DISCOUNT_MESSAGES.percent),
        v.minValue(1, DISCOUNT_MESSAGES.percent),
        v.maxValue(10_000, DISCOUNT_MESSAGES.percent),
      ),
    ),
    /** USDC off, for `fixed`. */
    amountUsdc: v.nullish(MoneyStringSchema),
    /** The order's subtotal (before shipping and tax) the code needs; 0.00 for none. */
    minimumSubtotalUsdc: v.optional(MoneyStringSchema, '0.00'),
    /** The products the code takes money off; null or absent: every product. */
    productIds: v.nullish(
      v.pipe(v.array(uuid), v.maxLength(DISCOUNT_LIMITS.products, DISCOUNT_MESSAGES.products)),
    ),
    /** When the code stops working (ISO 8601); null: never. */
    expiresAt: v.nullish(
      v.pipe(
        v.string(DISCOUNT_MESSAGES.expiresAt),
        v.maxLength(40, DISCOUNT_MESSAGES.expiresAt),
        v.check((s) => !Number.isNaN(Date.parse(s)), DISCOUNT_MESSAGES.expiresAt),
      ),
    ),
    /** Uses in all (paid orders and orders within their hold); null: no limit. */
    maxUses: usageLimit,
    /** Uses per customer email; null: no limit. */
    maxUsesPerCustomer: usageLimit,
    isActive: v.optional(v.boolean(), true),
  }),
  v.check(
    (d) => d.kind !== 'percent' || typeof d.percentBps === 'number',
    DISCOUNT_MESSAGES.percent,
  ),
  v.check(
    (d) => d.kind !== 'fixed' || (typeof d.amountUsdc === 'string' && parseUsdc(d.amountUsdc) > 0n),
    DISCOUNT_MESSAGES.amount,
  ),
);
/** A validated code as the merchant sends it. */
export type DiscountInput = v.InferOutput<typeof DiscountInputSchema>;

/** What a code does to an order: the part of a code the checkout and the pricing need. */
export interface DiscountRule {
  code: string;
  kind: DiscountKind;
  percentBps: number | null;
  amountUsdc: string | null;
  minimumSubtotalUsdc: string;
  productIds: string[] | null;
}

const money = v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/));
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A code as a shopper's checkout gets it (POST /api/discount-codes/check). */
export const DiscountRuleSchema = v.object({
  code: v.string(),
  kind: v.picklist(DISCOUNT_KINDS),
  percentBps: v.nullable(count),
  amountUsdc: v.nullable(money),
  minimumSubtotalUsdc: money,
  productIds: v.nullable(v.array(v.string())),
});

/** A code as its merchant sees it, with how it was used. */
export const DiscountSchema = v.object({
  ...DiscountRuleSchema.entries,
  id: v.string(),
  storeId: v.string(),
  expiresAt: v.nullable(timestamp),
  maxUses: v.nullable(count),
  maxUsesPerCustomer: v.nullable(count),
  isActive: v.boolean(),
  /** Uses counted against the limits: paid orders and pending ones within their hold. */
  uses: count,
  /** Orders paid (or later) with the code. */
  paidOrders: count,
  /** What the code took off its paid orders, USDC. */
  discountedUsdc: money,
  /** What its paid orders paid, USDC. */
  revenueUsdc: money,
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** A code with its figures. */
export type Discount = v.InferOutput<typeof DiscountSchema>;

/** Body of POST /api/discount-codes/check: a code tried at a store's checkout. */
export const DiscountCheckSchema = v.object({
  storeId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(64)),
  code: DiscountCodeSchema,
  /** The shopper's email when known, for the per-customer limit. */
  customerEmail: v.optional(v.pipe(v.string(), v.maxLength(254))),
});

/** A line as the discount reads it. */
export interface DiscountLine {
  productId: string;
  priceUsdc: string;
  quantity: number;
}

/** The subtotal of the lines a rule applies to (every line when it names no products). */
export function eligibleSubtotal(lines: readonly DiscountLine[], rule: DiscountRule): Usdc {
  const only = rule.productIds ? new Set(rule.productIds.map((id) => id.toLowerCase())) : null;
  return sumUsdc(
    lines
      .filter((line) => !only || only.has(line.productId.toLowerCase()))
      .map((line) => multiplyUsdc(parseUsdc(line.priceUsdc), line.quantity)),
  );
}

/**
 * Why a rule cannot apply to these lines (the message a shopper reads), or undefined when it can:
 * below the minimum subtotal, or none of its products in the cart.
 */
export function discountRefusal(
  lines: readonly DiscountLine[],
  rule: DiscountRule,
): string | undefined {
  const subtotal = sumUsdc(
    lines.map((line) => multiplyUsdc(parseUsdc(line.priceUsdc), line.quantity)),
  );
  const minimum = parseUsdc(rule.minimumSubtotalUsdc);
  if (subtotal < minimum) return DISCOUNT_MESSAGES.minimum(formatUsdc(minimum));
  if (eligibleSubtotal(lines, rule) === 0n) return DISCOUNT_MESSAGES.noProducts;
  return undefined;
}

/**
 * What a rule takes off the lines: a percentage of the eligible subtotal rounded half up to the
 * cent, or the fixed amount, never more than the eligible subtotal (shipping and tax are never
 * discounted; tax is charged on what is left).
 */
export function discountAmount(lines: readonly DiscountLine[], rule: DiscountRule): Usdc {
  const eligible = eligibleSubtotal(lines, rule);
  const off =
    rule.kind === 'percent'
      ? percentOf(eligible, BigInt(rule.percentBps ?? 0))
      : parseUsdc(rule.amountUsdc ?? '0');
  // Note: bigint amounts (Math.min takes numbers only).
  if (off > eligible) return eligible;
  return off;
}

/** How the admin and the checkout name a rule: "10% off" or "5.00 USDC off" (and on what). */
export function describeDiscount(
  rule: Pick<DiscountRule, 'kind' | 'percentBps' | 'amountUsdc' | 'productIds'>,
): string {
  const off =
    rule.kind === 'percent'
      ? `${formatPercent(rule.percentBps ?? 0)} off`
      : `${rule.amountUsdc ?? '0.00'} USDC off`;
  const count = rule.productIds?.length ?? 0;
  return count > 0 ? `${off} ${count === 1 ? 'one product' : `${count} products`}` : off;
}

/** Basis points as a percentage text: 1000 → "10%", 1250 → "12.5%". */
export function formatPercent(bps: number): string {
  return `${Number((bps / 100).toFixed(2))}%`;
}
