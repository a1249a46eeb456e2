// Business constants and limits (docs/rules.md#constants), in one place.

/** Platform processing fee in basis points (2%: 98% goes to the merchant). */
export const PLATFORM_FEE_BPS = 200n;
/** Basis points in one whole (100%). */
export const BPS_DENOMINATOR = 10_000n;
/** Estimated sales tax on the store checkout in basis points (8%). */
export const ESTIMATED_TAX_BPS = 800n;

/** USDC token decimals. */
export const USDC_DECIMALS = 6;
/** Base units in one USDC (one dollar). */
export const USDC_UNIT = 1_000_000n;
/** Base units in one cent. */
export const USDC_CENT = 10_000n;

/** Precision of price columns: decimal(10, 2). */
export const PRICE_PRECISION = { digits: 10, decimals: 2 } as const;
/** Precision of gas columns: decimal(30, 18). */
export const GAS_PRECISION = { digits: 30, decimals: 18 } as const;

// Chain ids and Circle's USDC contracts live in chains.ts (re-exported here for older imports).
export {
  BASE_CHAIN_ID,
  BASE_SEPOLIA_CHAIN_ID,
  BASE_SEPOLIA_USDC_ADDRESS,
  BASE_USDC_ADDRESS,
  CHAIN_IDS,
  USDC_ADDRESSES,
} from './chains.ts';
/** Chain names a payment can be requested on (Base only). */
export const PAYMENT_CHAINS = ['base'] as const;
/** Default selected chain of the cart and of wallet requests. */
export const DEFAULT_CHAIN = 'base';

/** Payment status poll interval. */
export const PAYMENT_POLL_INTERVAL_MS = 10_000;
/** Delay before redirecting after a confirmed payment. */
export const CONFIRMATION_REDIRECT_DELAY_MS = 2000;
/** Outgoing webhook request timeout. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Webhook responses counted as delivered (inclusive range). */
export const WEBHOOK_SUCCESS_STATUS = { min: 200, max: 299 } as const;
/** Payment page countdown start (6 hours). */
export const PAYMENT_COUNTDOWN_SECONDS = 21_600;
/** Countdown after Try Again on the store payment page (15 minutes). */
export const PAYMENT_RETRY_COUNTDOWN_SECONDS = 15 * 60;
/** Payment window claimed on the landing page and docs. */
export const PAYMENT_WINDOW_DAYS = 7;

/** Store themes. */
export const THEMES = ['light', 'dark'] as const;
/** Default store theme. */
export const DEFAULT_THEME = 'dark';
/** Default store colours. */
export const DEFAULT_COLORS = {
  primary: '#6366f1',
  secondary: '#8b5cf6',
  accent: '#06b6d4',
} as const;
/** Owner id the admin form defaults to. */
export const DEFAULT_OWNER_ID = 'admin';

/** QR code rendering defaults. */
export const QR_CODE = { size: 192, margin: 2, dark: '#000000', light: '#ffffff' } as const;
/** Toast behaviour. */
export const TOAST = {
  limit: 1,
  durationMs: 5000,
  removeDelayMs: 1_000_000,
  swipeDirection: 'right',
  swipeThresholdPx: 50,
  hotkey: 'F8',
} as const;

/** Shipping methods, cheapest first. */
export const SHIPPING_METHODS = ['free', 'standard', 'express'] as const;
/** Shipping options: price (2-decimal USDC string), base units, label and delivery text. */
export const SHIPPING_OPTIONS = {
  free: { label: 'Free', priceUsdc: '0.00', baseUnits: 0n, delivery: '7-10 business days' },
  standard: {
    label: 'Standard',
    priceUsdc: '12.99',
    baseUnits: 12_990_000n,
    delivery: '5-7 business days',
  },
  express: {
    label: 'Express',
    priceUsdc: '24.99',
    baseUnits: 24_990_000n,
    delivery: '2-3 business days',
  },
} as const;
/** Delivery estimate the thank-you page always shows. */
export const THANK_YOU_DELIVERY_ESTIMATE = '5-7 business days';
/** Example shipping prices used in the docs. */
export const DOCS_EXAMPLE_SHIPPING = { standard: '8.99', express: '17.99' } as const;

/** Default and limits of the quantity selector. */
export const DEFAULT_QUANTITY = 1;
/** Smallest selectable quantity. */
export const MIN_QUANTITY = 1;
/** Largest selectable quantity when inventory is 0 or unknown. */
export const MAX_QUANTITY_FALLBACK = 99;
/** Inventory of a new product. */
export const DEFAULT_INVENTORY = 0;
/** Largest inventory accepted (Postgres integer). */
export const MAX_INVENTORY = 2_147_483_647;
/** Forwarding retry count of a new payment wallet. */
export const DEFAULT_FORWARDING_RETRY_COUNT = 0;

/** Card description truncation length. */
export const DESCRIPTION_TRUNCATE_LENGTH = 100;
/** Orders shown in the dashboard's Recent Orders table. */
export const RECENT_ORDERS_LIMIT = 5;
/** Skeleton cards shown while products load. */
export const SKELETON_CARD_COUNT = 8;
/** The return policy (days) of a store that set none. */
export const RETURN_POLICY_DAYS = 30;
/** Length of the short order id. */
export const SHORT_ORDER_ID_LENGTH = 8;
/** Price of the landing page's demo item. */
export const DEMO_ITEM_PRICE_USDC = '0.25';
/** Dashboard analytics window. */
export const ANALYTICS_WINDOW_DAYS = 30;

/** Upload hints: accepted formats and maximum size. */
export const IMAGE_HINTS = {
  logo: { formats: ['PNG', 'JPG', 'SVG'], maxBytes: 2 * 1024 * 1024, maxLabel: '2MB' },
  product: { formats: ['PNG', 'JPG', 'WebP'], maxBytes: 5 * 1024 * 1024, maxLabel: '5MB' },
} as const;

/** Marketing claims of the landing page. */
export const MARKETING_CLAIMS = {
  setupSeconds: 60,
  feePercent: 2,
  merchantPercent: 98,
  traditionalFeePercent: '3-5%',
} as const;

/** Legal figures of the terms and privacy pages. */
export const LEGAL = {
  usageDataRetentionMonths: 24,
  blockchainLogRetentionMonths: 12,
  liabilityCapMonths: 12,
  arbitrationOptOutDays: 30,
  smallClaimsLimitUsd: 10_000,
  minimumAge: 18,
} as const;
