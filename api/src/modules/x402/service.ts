// Our 402: a digital product's payable URL. Without payment it answers the x402 v2 requirements
// with a fresh deposit address (an order of one unit made for it, so the money takes the path of
// every order: detection, forwarding 98/2, webhooks). With a PAYMENT-SIGNATURE it verifies the
// EIP-3009 authorization, records it for the worker's relayer to settle, and once the transfer is
// in a block proxies the request to the merchant's API with the secret header (or, for a file
// product, answers the file itself), keeping the answer so the same authorization sent again gets
// it again without a second charge. An upstream that fails after payment (or a file gone from the
// store) refunds the payer (the signer) from the deposit address.
import {
  DEFAULT_CHAIN,
  formatUsdcFull,
  type OrderItem,
  parseUsdc,
  usdcDomainNameOf,
} from '@store/shared';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import {
  type Address,
  getAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
  recoverTypedDataAddress,
} from 'viem';
import { transferWithAuthorizationTypes, usdcAbi } from '../../chain/usdc-abi.ts';
import type { ApiConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { orders, paymentWallets, products, stores, x402Payments } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { lockWallet, openDepositRefund } from '../../payments/refund-store.ts';
import { X402_SETTLE_CHANNEL } from '../../payments/x402-settlement.ts';
import type { ObjectStore } from '../../uploads/storage.ts';
import { checkWebhookUrl } from '../../webhooks/url-safety.ts';
import { assignPaymentWallet } from '../payments/assign-payment-wallet.ts';
import type { PaymentDeps } from '../payments/model.ts';
import { attachment } from '../products/file.ts';
import {
  caip2Of,
  encodeHeader,
  X402_MESSAGES as M,
  MAX_UPSTREAM_BYTES,
  type PaymentPayload,
  type PaymentRequirements,
  X402_HEADERS,
  X402_MAX_TIMEOUT_SECONDS,
  X402_VERSION,
} from './model.ts';
import { notifyRowMoved, waitForRow } from './row-waits.ts';

type PaymentRow = typeof x402Payments.$inferSelect;

/** What the 402 needs besides the database. */
export interface X402Deps {
  db: Database;
  config: ApiConfig;
  chain: PublicClient;
  payments: PaymentDeps;
  /** Where file products' files are kept. */
  files: ObjectStore;
}

/** A digital product as the payable URL serves it (with its secret: never sent to a client). */
export type Resource = {
  id: string;
  storeId: string;
  title: string;
  priceUsdc: string;
} & (
  | { kind: 'api'; upstreamUrl: string; secretHeader: string | null; secretValue: string | null }
  | { kind: 'file'; fileKey: string; fileName: string; fileType: string }
);

/** The published API resource of an open store, or undefined. */
export async function findResource(db: Database, id: string): Promise<Resource | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({
      id: products.id,
      storeId: products.storeId,
      title: products.title,
      priceUsdc: products.priceUsdc,
      digitalKind: products.digitalKind,
      upstreamUrl: products.upstreamUrl,
      secretHeader: products.upstreamSecretHeader,
      secretValue: products.upstreamSecretValue,
      fileKey: products.fileKey,
      fileName: products.fileName,
      fileType: products.fileType,
    })
    .from(products)
    .innerJoin(stores, eq(stores.id, products.storeId))
    .where(and(eq(products.id, id), eq(products.isPublished, true), eq(stores.isActive, true)))
    .limit(1);
  if (!row) return undefined;
  const base = { id: row.id, storeId: row.storeId, title: row.title, priceUsdc: row.priceUsdc };
  if (row.digitalKind === 'api' && row.upstreamUrl)
    return {
      ...base,
      kind: 'api',
      upstreamUrl: row.upstreamUrl,
      secretHeader: row.secretHeader,
      secretValue: row.secretValue,
    };
  if (row.digitalKind === 'file' && row.fileKey && row.fileName && row.fileType)
    return {
      ...base,
      kind: 'file',
      fileKey: row.fileKey,
      fileName: row.fileName,
      fileType: row.fileType,
    };
  return undefined;
}

/** The network, token and EIP-712 domain of this deployment's USDC. */
export function assetOf(config: ApiConfig) {
  const chainId = config.chain.chainId;
  return {
    chainId,
    network: caip2Of(chainId),
    asset: getAddress(config.chain.usdc),
    // Note: the token's EIP-712 domain: "USD Coin" / "2" on Base and the local deployment.
    extra: { name: usdcDomainNameOf(chainId), version: '2' },
  };
}

/** An x402 answer: status, headers, body. */
export interface X402Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

const json = (
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): X402Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/** A 402 with the requirements in PAYMENT-REQUIRED (and the body, as x402 v2 servers send it). */
function paymentRequired(
  resourceUrl: string,
  resource: Resource,
  accepts: PaymentRequirements[],
  error?: string,
): X402Answer {
  const required = {
    x402Version: X402_VERSION,
    ...(error ? { error } : {}),
    resource: {
      url: resourceUrl,
      description: resource.title,
      mimeType: resource.kind === 'file' ? resource.fileType : '',
    },
    accepts,
  };
  return json(402, required, { [X402_HEADERS.required]: encodeHeader(required) });
}

/** The requirements of paying `resource` at the deposit address `payTo`. */
function requirementsOf(config: ApiConfig, resource: Resource, payTo: string): PaymentRequirements {
  const { network, asset, extra } = assetOf(config);
  return {
    scheme: 'exact',
    network,
    amount: parseUsdc(resource.priceUsdc).toString(),
    asset,
    payTo: getAddress(payTo),
    maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
    extra,
  };
}

/**
 * The first answer: a pending order of one unit at the product's price, its fresh deposit
 * address as `payTo`, in a 402.
 */
export async function offerPayment(
  deps: X402Deps,
  resource: Resource,
  resourceUrl: string,
  error?: string,
): Promise<X402Answer> {
  const item: OrderItem = {
    productId: resource.id,
    title: resource.title,
    priceUsdc: resource.priceUsdc,
    quantity: 1,
    // Note: a request to an API is not a unit of stock (an unflagged line counts as tracked).
    stockTracked: false,
  };
  const { payTo } = await openX402Order(deps, resource.storeId, item, resourceUrl);
  return paymentRequired(
    resourceUrl,
    resource,
    [requirementsOf(deps.config, resource, payTo)],
    error,
  );
}

/**
 * A pending x402 order of `storeId` with the one line `item`, and its fresh deposit address (the
 * `payTo` offered): its money takes the path of every order (detection, forwarding, webhooks).
 */
export async function openX402Order(
  deps: X402Deps,
  storeId: string,
  item: OrderItem,
  resourceUrl: string,
): Promise<{ payTo: string; orderId: string }> {
  const [order] = await deps.db
    .insert(orders)
    .values({
      storeId,
      // Note: an agent has no mailbox of ours: no receipt or claim mail goes out.
      customerEmail: '',
      items: [item],
      subtotalUsdc: item.priceUsdc,
      totalUsdc: item.priceUsdc,
      metadata: { x402: { resource: resourceUrl.slice(0, 2048) } },
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('the x402 order was not inserted');
  const { paymentWallet } = await assignPaymentWallet(deps.payments, order.id, DEFAULT_CHAIN);
  return { payTo: paymentWallet.address, orderId: order.id };
}

/** Why a payment is refused (x402's invalid reason and our message), or undefined when valid. */
export type Refusal = { reason: string; message: string };

export const refuse = (reason: string, message: string): Refusal => ({ reason, message });

/** The order and wallet a payTo belongs to, when it was offered for this resource. */
async function offeredWallet(db: Database, resource: Resource, payTo: string) {
  const [row] = await db
    .select({ wallet: paymentWallets, order: orders })
    .from(paymentWallets)
    .innerJoin(orders, eq(orders.id, paymentWallets.orderId))
    .where(sql`lower(${paymentWallets.walletAddress}) = ${payTo.toLowerCase()}`)
    .limit(1);
  if (!row?.order.metadata?.x402 || row.order.items[0]?.productId !== resource.id) return undefined;
  return row;
}

/**
 * Verifies a payment against the requirements offered for `payTo` (x402 `exact` on EVM): the
 * network and token, the recipient, the exact amount, the validity window (with room to settle),
 * the payer's signature (EOA or ERC-1271 through viem), the balance and the unused nonce.
 */
export async function verifyAuthorization(
  deps: X402Deps,
  payment: PaymentPayload,
  wallet: typeof paymentWallets.$inferSelect,
): Promise<Refusal | undefined> {
  const { chainId, network, asset, extra } = assetOf(deps.config);
  const { accepted } = payment;
  const { authorization: auth, signature } = payment.payload;
  if (
    accepted.scheme !== 'exact' ||
    accepted.network !== network ||
    !isAddressEqual(accepted.asset as Address, asset)
  )
    return refuse('unsupported_scheme', M.unsupported);
  if (!isAddressEqual(auth.to as Address, accepted.payTo as Address))
    return refuse('invalid_exact_evm_payload_recipient_mismatch', M.recipient);
  const price = parseUsdc(wallet.expectedAmountUsdc);
  if (BigInt(auth.value) !== price || BigInt(accepted.amount) !== price)
    return refuse('invalid_exact_evm_payload_authorization_value', M.amount);
  const now = BigInt(Math.floor(Date.now() / 1000));
  // Note: it must stay valid while the relayer gets it into a block.
  if (BigInt(auth.validAfter) > now || BigInt(auth.validBefore) < now + 6n)
    return refuse('invalid_exact_evm_payload_authorization_valid_before', M.window);
  const from = getAddress(auth.from);
  const typed = {
    domain: { ...extra, chainId, verifyingContract: asset },
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      from,
      to: getAddress(auth.to),
      value: BigInt(auth.value),
      validAfter: BigInt(auth.validAfter),
      validBefore: BigInt(auth.validBefore),
      nonce: auth.nonce as Hex,
    },
    signature: signature as Hex,
  } as const;
  // Note: an account's own signature is checked here without the chain; only another kind (a
  // contract wallet's, ERC-1271 or ERC-6492) asks the chain. The balance and nonce are read at the
  // same time.
  const signedBy = async () =>
    (await recoverTypedDataAddress(typed).then(
      (signer) => isAddressEqual(signer, from),
      () => false,
    )) || deps.chain.verifyTypedData({ address: from, ...typed }).catch(() => false);
  const [valid, balance, used] = await Promise.all([
    signedBy(),
    deps.chain.readContract({
      address: asset,
      abi: usdcAbi,
      functionName: 'balanceOf',
      args: [from],
    }),
    deps.chain.readContract({
      address: asset,
      abi: usdcAbi,
      functionName: 'authorizationState',
      args: [from, auth.nonce as Hex],
    }),
  ]);
  if (!valid) return refuse('invalid_exact_evm_payload_signature', M.signature);
  if (balance < price) return refuse('insufficient_funds', M.balance);
  if (used) return refuse('invalid_exact_evm_payload_authorization_nonce', M.nonce);
  return undefined;
}

/** The row of an authorization already recorded (a replay, or a concurrent request). */
export async function recordedPayment(db: Database, payer: string, nonce: string) {
  const [row] = await db
    .select()
    .from(x402Payments)
    .where(
      and(
        eq(x402Payments.payer, payer.toLowerCase()),
        eq(x402Payments.authorizationNonce, nonce.toLowerCase()),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Records a verified authorization for the worker's relayer to settle (and wakes it); undefined
 * when one is already recorded for the same authorization or deposit address.
 */
export async function recordPayment(
  deps: X402Deps,
  payment: PaymentPayload,
  orderId: string,
  walletId: string,
  productId: string | null,
): Promise<PaymentRow | undefined> {
  const auth = payment.payload.authorization;
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(x402Payments)
      .values({
        orderId,
        walletId,
        productId,
        payer: auth.from.toLowerCase(),
        payTo: auth.to.toLowerCase(),
        value: auth.value,
        validAfter: auth.validAfter,
        validBefore: auth.validBefore,
        authorizationNonce: auth.nonce.toLowerCase(),
        signature: payment.payload.signature,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return undefined;
    // Note: the payer rides on the order, so `order.paid` names it.
    await tx
      .update(orders)
      .set({
        metadata: sql`jsonb_set(${orders.metadata}, '{x402,payer}', to_jsonb(${getAddress(auth.from)}::text))`,
      })
      .where(eq(orders.id, orderId));
    await tx.execute(sql`select pg_notify(${X402_SETTLE_CHANNEL}, ${row.id})`);
    return row;
  });
}

/**
 * A request with PAYMENT-SIGNATURE: the payment recorded for the worker to settle (or the one
 * already recorded for the same authorization), or the 402 that refuses it (nothing is charged).
 */
export async function acceptPayment(
  deps: X402Deps,
  resource: Resource,
  payment: PaymentPayload,
  resourceUrl: string,
  /** Called before a refusal opens a new order (the client's limit on those). */
  beforeOffer: () => Promise<void> = async () => undefined,
): Promise<{ row: PaymentRow } | { refused: X402Answer }> {
  const auth = payment.payload.authorization;
  const existing = await recordedPayment(deps.db, auth.from, auth.nonce);
  if (existing && existing.productId === resource.id) return { row: existing };
  const refusal = async (r: Refusal, payTo?: string) => {
    if (payTo)
      return paymentRequired(
        resourceUrl,
        resource,
        [requirementsOf(deps.config, resource, payTo)],
        `${r.reason}: ${r.message}`,
      );
    await beforeOffer();
    return offerPayment(deps, resource, resourceUrl, `${r.reason}: ${r.message}`);
  };
  const offered = await offeredWallet(deps.db, resource, payment.accepted.payTo);
  if (!offered || !isAddressEqual(auth.to as Address, payment.accepted.payTo as Address))
    return { refused: await refusal(refuse('invalid_payload', M.unknownPayTo)) };
  const { wallet, order } = offered;
  if (order.status !== 'pending' || wallet.status !== 'waiting')
    return { refused: await refusal(refuse('invalid_payload', M.used)) };
  const invalid = await verifyAuthorization(deps, payment, wallet);
  if (invalid) return { refused: await refusal(invalid, wallet.walletAddress) };
  const inserted = await recordPayment(deps, payment, order.id, wallet.id, resource.id);
  if (inserted) return { row: inserted };
  // Note: the same authorization recorded meanwhile (a concurrent request), or another one for
  // the same deposit address.
  const raced = await recordedPayment(deps.db, auth.from, auth.nonce);
  if (raced) return { row: raced };
  return { refused: await refusal(refuse('invalid_payload', M.used)) };
}

const SETTLING = new Set(['settling', 'submitted']);
const SERVING = new Set(['settling', 'submitted', 'settled', 'serving']);

/** The PAYMENT-RESPONSE header of a settled payment. */
function paymentResponse(config: ApiConfig, row: PaymentRow): Record<string, string> {
  return {
    [X402_HEADERS.response]: encodeHeader({
      success: true,
      transaction: row.txHash,
      network: caip2Of(config.chain.chainId),
      payer: getAddress(row.payer),
      amount: row.value,
    }),
  };
}

/**
 * The answer kept for the row (served, or undelivered and refunded). Note: a file served is not
 * copied into the row: a replay reads it from the store again.
 */
async function keptAnswer(
  deps: X402Deps,
  resource: Resource,
  row: PaymentRow,
): Promise<X402Answer> {
  const file = row.status === 'served' && resource.kind === 'file' && !row.responseBody;
  const body = file
    ? await deps.files.get(resource.fileKey)
    : row.responseBody
      ? Buffer.from(row.responseBody, 'base64')
      : null;
  return {
    status: row.responseStatus ?? 502,
    headers: {
      ...(row.responseType ? { 'content-type': row.responseType } : {}),
      ...(file ? fileHeaders(resource) : {}),
      ...paymentResponse(deps.config, row),
    },
    body,
  };
}

/** The headers of a file product's file. */
function fileHeaders(resource: Resource): Record<string, string> {
  if (resource.kind !== 'file') return {};
  return {
    'content-disposition': attachment(resource.fileName),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
}

/** Reads at most `max` bytes of a body; undefined when it is longer. */
async function readCapped(response: Response, max: number): Promise<Uint8Array | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Timeout of a request to the merchant's API. */
const UPSTREAM_TIMEOUT_MS = 20_000;

/** The merchant's answer, or why it failed. */
async function callUpstream(
  deps: X402Deps,
  resource: Resource,
  query: string,
): Promise<{ status: number; type: string | null; body: Uint8Array | null } | { failed: string }> {
  if (resource.kind === 'file') {
    // Note: the file is read now to know it is there; the answer carries it, the row does not.
    const bytes = await deps.files.get(resource.fileKey).catch(() => null);
    if (!bytes) return { failed: 'the file is no longer available' };
    return { status: 200, type: resource.fileType, body: null };
  }
  const url = new URL(resource.upstreamUrl);
  if (query) url.search = query;
  const unsafe = await checkWebhookUrl(url.toString(), deps.config.allowPrivateWebhooks);
  if (unsafe) return { failed: unsafe };
  try {
    const response = await fetch(url, {
      headers:
        resource.secretHeader && resource.secretValue
          ? { [resource.secretHeader]: resource.secretValue }
          : {},
      redirect: 'manual',
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    const body = await readCapped(response, MAX_UPSTREAM_BYTES);
    if (!body) return { failed: `the answer is larger than ${MAX_UPSTREAM_BYTES} bytes` };
    if (response.status >= 400) return { failed: `the API answered ${response.status}` };
    return { status: response.status, type: response.headers.get('content-type'), body };
  } catch (error) {
    return { failed: `the API did not answer (${(error as Error).message.slice(0, 200)})` };
  }
}

/**
 * Refunds an undelivered payment to its payer (the authorization's signer) from the deposit
 * address: a refund ready to send (no claim: the signer is the payer), which the forwarding loop
 * sends with the EIP-3009 machinery of every deposit refund; `order.refund_requested` goes out.
 */
async function refundPayer(db: Database, row: PaymentRow): Promise<void> {
  await db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, row.walletId);
    if (!wallet) return;
    await openDepositRefund(
      tx,
      wallet,
      { reason: 'undelivered', amount: BigInt(row.value), payer: getAddress(row.payer) },
      new Date(),
    );
  });
}

/**
 * Serves a recorded payment: once settled, one request proxies the merchant's API and keeps the
 * answer; the others (replays, concurrent requests) wait for it and get the same.
 */
export async function servePaid(
  deps: X402Deps,
  resource: Resource,
  recorded: PaymentRow,
  resourceUrl: string,
  query: string,
): Promise<X402Answer> {
  const waitMs = X402_MAX_TIMEOUT_SECONDS * 100;
  let row = await waitForRow(deps.db, recorded.id, (r) => !SETTLING.has(r.status), waitMs);
  if (SETTLING.has(row.status)) return json(503, { error: M.pending }, { 'retry-after': '1' });
  if (row.status === 'failed')
    return paymentRequired(
      resourceUrl,
      resource,
      [requirementsOf(deps.config, resource, row.payTo)],
      `settle_failed: ${M.settleFailed} (${row.error ?? 'unknown'})`,
    );
  if (row.status === 'settled' || row.status === 'serving') {
    // Note: one request serves it; one left `serving` by a process that died is taken over.
    const abandoned = new Date(Date.now() - UPSTREAM_TIMEOUT_MS - 10_000);
    const [claimed] = await deps.db
      .update(x402Payments)
      .set({ status: 'serving', claimedAt: new Date() })
      .where(
        and(
          eq(x402Payments.id, row.id),
          or(
            eq(x402Payments.status, 'settled'),
            and(eq(x402Payments.status, 'serving'), lt(x402Payments.claimedAt, abandoned)),
          ),
        ),
      )
      .returning();
    if (claimed) return proxy(deps, resource, claimed, query);
  }
  row = await waitForRow(
    deps.db,
    row.id,
    (r) => !SERVING.has(r.status),
    UPSTREAM_TIMEOUT_MS + 5_000,
  );
  if (SERVING.has(row.status)) return json(503, { error: M.pending }, { 'retry-after': '1' });
  return keptAnswer(deps, resource, row);
}

/** Proxies the paid request and keeps the answer; an upstream failure refunds the payer. */
async function proxy(
  deps: X402Deps,
  resource: Resource,
  row: PaymentRow,
  query: string,
): Promise<X402Answer> {
  const answer = await callUpstream(deps, resource, query);
  if ('failed' in answer) {
    const body = JSON.stringify({
      error: M.upstream,
      reason: answer.failed,
      refund: { to: getAddress(row.payer), amount: formatUsdcFull(BigInt(row.value)) },
    });
    await refundPayer(deps.db, row);
    const [kept] = await deps.db
      .update(x402Payments)
      .set({
        status: 'undelivered',
        responseStatus: 502,
        responseType: 'application/json',
        responseBody: Buffer.from(body).toString('base64'),
        error: answer.failed,
        servedAt: new Date(),
      })
      .where(eq(x402Payments.id, row.id))
      .returning();
    await notifyRowMoved(deps.db, row.id);
    return keptAnswer(deps, resource, kept ?? row);
  }
  const [kept] = await deps.db
    .update(x402Payments)
    .set({
      status: 'served',
      responseStatus: answer.status,
      responseType: answer.type,
      responseBody: answer.body ? Buffer.from(answer.body).toString('base64') : null,
      servedAt: new Date(),
    })
    .where(eq(x402Payments.id, row.id))
    .returning();
  await notifyRowMoved(deps.db, row.id);
  return keptAnswer(deps, resource, kept ?? row);
}
