// Field schemas reused by the entity and request schemas, and helpers to read valibot issues.
import * as v from 'valibot';
import { isEthereumAddress, isHexColor, isHttpUrl, isZeroAddress } from '../address.ts';
import { SHIPPING_METHODS, THEMES } from '../constants.ts';
import { maxChars } from '../limits.ts';
import {
  CUSTOMER_FORM_MESSAGES,
  PAYOUT_ADDRESS_MESSAGES,
  STORE_FORM_MESSAGES,
} from '../messages.ts';
import { isPriceString, tryParseUsdc } from '../money.ts';

/**
 * A string where a missing key reads as ''. Note: valibot reports a missing key with the object's
 * generic "Invalid key" message; defaulting to '' lets the field's own message apply instead.
 */
export function missingAsEmpty(message: string) {
  return v.optional(v.string(message), '');
}

/** A string that must not be blank; the same message for a missing, empty or blank value. Trims. */
export function requiredText(message: string) {
  return v.pipe(missingAsEmpty(message), v.trim(), v.nonEmpty(message));
}

/** A required text (as `requiredText`) of at most `max` characters. */
export function requiredCappedText(message: string, label: string, max: number) {
  return v.pipe(missingAsEmpty(message), v.trim(), v.nonEmpty(message), maxChars(label, max));
}

/** An Ethereum address (0x + 40 hex) with the given message, also when missing. */
export function ethereumAddress(message: string) {
  return v.pipe(missingAsEmpty(message), v.check(isEthereumAddress, message));
}

/** A payout address: an Ethereum address (`message` otherwise) that is not the zero address. */
export function payoutAddress(message: string) {
  return v.pipe(
    ethereumAddress(message),
    v.check((s) => !isZeroAddress(s), PAYOUT_ADDRESS_MESSAGES.zero),
  );
}

/** A #abc / #aabbcc colour with the given message. */
export function hexColor(message: string) {
  return v.pipe(v.string(message), v.check(isHexColor, message));
}

/** An absolute http(s) URL with the given message. */
export function httpUrl(message: string) {
  return v.pipe(v.string(message), v.check(isHttpUrl, message));
}

/** A price/money string on the wire: decimal(10,2), at most 2 decimals ("12.99", "10", "0.25"). */
export const MoneyStringSchema = v.pipe(
  v.string('Amount must be a decimal string'),
  v.check(isPriceString, 'Amount must be a decimal with at most 2 decimals'),
);

/** A received USDC amount: non-negative decimal with at most 6 decimals. */
export const UsdcAmountStringSchema = v.pipe(
  v.string('Amount must be a decimal string'),
  v.check((s) => tryParseUsdc(s) !== undefined, 'Amount must be a decimal with at most 6 decimals'),
);

/** Store theme: light or dark. */
export const ThemeSchema = v.picklist(THEMES, STORE_FORM_MESSAGES.theme);
/** A store theme. */
export type Theme = v.InferOutput<typeof ThemeSchema>;

/** Shipping method: free, standard or express. */
export const ShippingMethodSchema = v.picklist(
  SHIPPING_METHODS,
  CUSTOMER_FORM_MESSAGES.shippingMethod,
);
/** A shipping method. */
export type ShippingMethod = v.InferOutput<typeof ShippingMethodSchema>;

/** An ISO-8601 timestamp string as JSON carries dates. */
export const TimestampSchema = v.string();

/** An optional free-text field that may also be null on the wire. */
export const OptionalText = v.nullish(v.string());

/** Anything with valibot-style issues (a SafeParseResult or a ValiError). */
interface IssueCarrier {
  readonly issues?: readonly v.BaseIssue<unknown>[] | undefined;
}

/** The message of the first issue (the spec's message for the first failing rule), or undefined on success. */
export function firstIssueMessage(result: IssueCarrier): string | undefined {
  return result.issues?.[0]?.message;
}

/** First message per field, keyed by dot path ("shippingAddress.city"); root issues use key "". */
export function issuesByField(result: IssueCarrier): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of result.issues ?? []) {
    const key = v.getDotPath(issue) ?? '';
    fields[key] ??= issue.message;
  }
  return fields;
}
