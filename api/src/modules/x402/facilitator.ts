// The facilitator a merchant's own x402 server points at (x402 v2 facilitator HTTP API:
// `/verify`, `/settle`, `/supported`), under the merchant's API key. The merchant asks us for a
// `payTo` per request it charges (POST /api/x402/pay-to): a pending order of its store with a
// fresh deposit address, so the payment takes the path of every order (detection, forwarding
// 98/2, webhooks, the books). Verifying and settling accept only such a deposit address of the
// key's own stores, and settle through the worker's relayer as our own 402 does.
import { formatUsdc, type OrderItem, parseUsdc } from '@store/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type Address, getAddress, isAddressEqual } from 'viem';
import { orders, paymentWallets, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { authorizeStore, type Caller, memberStore } from '../team/access.ts';
import {
  type FacilitatorRequest,
  X402_MESSAGES as M,
  PAY_TO_ITEM_ID,
  type PayToRequest,
  X402_MAX_TIMEOUT_SECONDS,
  X402_VERSION,
} from './model.ts';
import { waitForRow } from './row-waits.ts';
import {
  assetOf,
  openX402Order,
  type Refusal,
  recordedPayment,
  recordPayment,
  refuse,
  verifyAuthorization,
  type X402Deps,
} from './service.ts';

/** Messages of the facilitator. */
export const FACILITATOR_MESSAGES = {
  storeNotFound: 'Store not found',
  mismatch: 'The payment does not match the requirements it was verified against',
  notYours: 'payTo is not a deposit address of your stores asked for with POST /api/x402/pay-to',
} as const;

/** A fresh deposit address for one request the merchant's server charges `amountUsdc` for. */
export async function createPayTo(deps: X402Deps, caller: Caller, body: PayToRequest) {
  const price = parseUsdc(body.amountUsdc);
  if (price <= 0n) throw new AppError('validation_failed', 'amountUsdc must be more than 0');
  const [store] = isUuid(body.storeId)
    ? await deps.db
        .select({ id: stores.id })
        .from(stores)
        .where(
          and(
            eq(stores.id, body.storeId),
            memberStore(caller, sql`${stores.id}`),
            eq(stores.isActive, true),
          ),
        )
        .limit(1)
    : [];
  if (!store) throw new AppError('not_found', FACILITATOR_MESSAGES.storeNotFound);
  await authorizeStore(deps.db, caller, store.id, 'operate');
  const item: OrderItem = {
    productId: PAY_TO_ITEM_ID,
    title: body.description ?? 'Paid request (x402)',
    priceUsdc: formatUsdc(price),
    quantity: 1,
    stockTracked: false,
  };
  const { payTo, orderId } = await openX402Order(deps, store.id, item, body.resource ?? '');
  const { network, asset, extra } = assetOf(deps.config);
  return {
    orderId,
    scheme: 'exact' as const,
    network,
    amount: price.toString(),
    asset,
    payTo: getAddress(payTo),
    maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
    extra,
  };
}

/** The kinds of payment this facilitator settles. */
export function supported(deps: X402Deps) {
  const { network } = assetOf(deps.config);
  return {
    kinds: [{ x402Version: X402_VERSION, scheme: 'exact', network }],
    extensions: [],
    signers: deps.config.relayerAddress
      ? { 'eip155:*': [getAddress(deps.config.relayerAddress)] }
      : {},
  };
}

/** The deposit address `payTo` of an order opened for one of the caller's stores. */
async function ownedWallet(deps: X402Deps, caller: Caller, payTo: string) {
  const [row] = await deps.db
    .select({ wallet: paymentWallets, order: orders })
    .from(paymentWallets)
    .innerJoin(orders, eq(orders.id, paymentWallets.orderId))
    .innerJoin(stores, eq(stores.id, orders.storeId))
    .where(
      and(
        sql`lower(${paymentWallets.walletAddress}) = ${payTo.toLowerCase()}`,
        memberStore(caller, sql`${stores.id}`),
      ),
    )
    .limit(1);
  if (!row?.order.metadata?.x402 || row.order.items[0]?.productId !== PAY_TO_ITEM_ID)
    return undefined;
  // Note: settling a store's payments is operating it: a viewer's key is refused (403).
  await authorizeStore(deps.db, caller, row.order.storeId ?? '', 'operate');
  return row;
}

type Checked =
  | { refusal: Refusal }
  | { wallet: typeof paymentWallets.$inferSelect; order: typeof orders.$inferSelect };

/**
 * The checks of `/verify` and `/settle` but the chain's: the requirements are the payment's
 * (what the client signed for), the deposit address is one of the key's stores', still unpaid.
 */
async function check(deps: X402Deps, caller: Caller, body: FacilitatorRequest): Promise<Checked> {
  const { paymentPayload: payment, paymentRequirements: required } = body;
  const { accepted } = payment;
  const auth = payment.payload.authorization;
  if (
    accepted.scheme !== required.scheme ||
    accepted.network !== required.network ||
    accepted.amount !== required.amount ||
    !isAddressEqual(accepted.asset as Address, required.asset as Address) ||
    !isAddressEqual(accepted.payTo as Address, required.payTo as Address)
  )
    return { refusal: refuse('invalid_payload', FACILITATOR_MESSAGES.mismatch) };
  const owned = await ownedWallet(deps, caller, required.payTo);
  if (!owned || !isAddressEqual(auth.to as Address, required.payTo as Address))
    return { refusal: refuse('invalid_payload', FACILITATOR_MESSAGES.notYours) };
  if (owned.order.status !== 'pending' || owned.wallet.status !== 'waiting')
    return { refusal: refuse('invalid_payload', M.used) };
  return owned;
}

/** `/verify`: whether the payment would settle now (nothing is submitted). */
export async function facilitatorVerify(deps: X402Deps, caller: Caller, body: FacilitatorRequest) {
  const payer = getAddress(body.paymentPayload.payload.authorization.from);
  const checked = await check(deps, caller, body);
  const refusal =
    'refusal' in checked
      ? checked.refusal
      : await verifyAuthorization(deps, body.paymentPayload, checked.wallet);
  if (refusal)
    return {
      isValid: false,
      invalidReason: refusal.reason,
      invalidMessage: refusal.message,
      payer,
    };
  return { isValid: true, payer };
}

const SETTLING = new Set(['settling', 'submitted']);

/**
 * `/settle`: records the verified authorization for the relayer and answers once it is in a
 * block. The same authorization settled again answers the same transaction (never a second
 * charge).
 */
export async function facilitatorSettle(deps: X402Deps, caller: Caller, body: FacilitatorRequest) {
  const payment = body.paymentPayload;
  const auth = payment.payload.authorization;
  const payer = getAddress(auth.from);
  const { network } = assetOf(deps.config);
  const failed = (reason: string, message: string) => ({
    success: false,
    errorReason: reason,
    errorMessage: message,
    payer,
    transaction: '',
    network,
  });
  let row = await recordedPayment(deps.db, auth.from, auth.nonce);
  if (row) {
    // Note: a replay is answered only to the merchant whose deposit address it paid.
    if (!(await ownedWallet(deps, caller, row.payTo)))
      return failed('invalid_payload', FACILITATOR_MESSAGES.notYours);
  } else {
    const checked = await check(deps, caller, body);
    if ('refusal' in checked) return failed(checked.refusal.reason, checked.refusal.message);
    const invalid = await verifyAuthorization(deps, payment, checked.wallet);
    if (invalid) return failed(invalid.reason, invalid.message);
    row =
      (await recordPayment(deps, payment, checked.order.id, checked.wallet.id, null)) ??
      (await recordedPayment(deps.db, auth.from, auth.nonce));
    if (!row) return failed('invalid_payload', M.used);
  }
  const done = await waitForRow(
    deps.db,
    row.id,
    (r) => !SETTLING.has(r.status),
    X402_MAX_TIMEOUT_SECONDS * 100,
  );
  if (SETTLING.has(done.status)) return failed('settle_pending', M.pending);
  if (done.status === 'failed')
    return failed('settle_failed', `${M.settleFailed} (${done.error ?? 'unknown'})`);
  return {
    success: true,
    payer,
    transaction: done.txHash ?? '',
    network,
    amount: done.value,
  };
}
