// Every merchant route against every kind of caller, on a real Postgres: the owner, an admin, a
// staff member, a viewer, another merchant who is not a member, an anonymous client and the
// owner's API keys carrying a lesser role (staff, viewer). The routes come from the app's OpenAPI
// document (each with a security requirement is a merchant route): a route without a row here
// fails the test. Each row states what the route needs:
// - `permission`: a permission on the route's store (shared/src/team.ts): a caller whose role has
//   it is let through (not 401, 403 or 404), a member whose role lacks it gets 403, a non-member
//   the store's 404 and an anonymous client 401;
// - `account`: the caller's own account, whatever its roles (any signed-in caller, anonymous 401);
// - `owner`: the owner's own mail about the store: the owner, and a 404 to anyone else;
// - `more`: a public route that shows more to members whose role has the permission.
// A route the document says is for a session only refuses every API key (403); one for an API key
// only is called by each member with their own key.
import { beforeAll, describe, expect, test } from 'bun:test';
import {
  roleAllows,
  type StorePermission,
  type StoreRole,
  shippingFor,
  storeCheckoutTotals,
  TEAM_MESSAGES,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import postgres from 'postgres';
import { reviews, webhookDeliveries } from '../src/db/schema.ts';
import { INVOICE_MESSAGES } from '../src/modules/invoices/service.ts';
import { type ApiResponse, apiClient, storeForm } from './support/client.ts';
import { account, member } from './support/team.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

/** One request of a caller: its session cookie and/or its API key go with it. */
type Send = (method: string, path: string, body?: unknown) => Promise<ApiResponse>;

/** What the rows call: the store and its things, made once by the owner. */
interface Fixture {
  storeId: string;
  productId: string;
  /** An unpublished product: its team sees it, the public does not. */
  draftId: string;
  deliveryId: string;
  orderId: string;
  discountId: string;
  reviewId: string;
  payTo: string;
  checkoutSessionId: string;
  /** A product made for one call that deletes it. */
  product(): Promise<string>;
  /** A discount made for one call that deletes it. */
  discount(): Promise<string>;
  /** A pending invitation made for one call that revokes it. */
  invitation(): Promise<string>;
  /** A viewer made for one call that changes or removes them. */
  member(): Promise<string>;
}

type Call = (send: Send, fx: Fixture) => Promise<ApiResponse>;

/** What a route needs of its caller. */
type Row =
  | {
      permission: StorePermission;
      call: Call;
      /** A caller let through, when that is not every answer but 401, 403 and 404. */
      letThrough?: (response: ApiResponse) => boolean;
      /** A non-member's answer, when it is not the store's 404. */
      nonMember?: (response: ApiResponse) => boolean;
    }
  | { account: true; call: Call }
  | { owner: true; call: Call }
  | {
      more: StorePermission;
      call: Call;
      seesMore: (response: ApiResponse) => boolean;
      /** 401 when an anonymous client is refused rather than shown the public answer. */
      anonymous?: 401;
    };

const zero = `0x${'0'.repeat(40)}`;
/** A facilitator request for the deposit address `payTo` with a signature that is not one. */
const facilitatorBody = (payTo: string) => {
  const accepted = {
    scheme: 'exact',
    network: 'eip155:31337',
    amount: '10000',
    asset: zero,
    payTo,
    maxTimeoutSeconds: 60,
  };
  return {
    x402Version: 2,
    paymentRequirements: accepted,
    paymentPayload: {
      x402Version: 2,
      accepted,
      payload: {
        signature: `0x${'1'.repeat(130)}`,
        authorization: {
          from: zero,
          to: payTo,
          value: '10000',
          validAfter: '0',
          validBefore: '9999999999',
          nonce: `0x${'2'.repeat(64)}`,
        },
      },
    },
  };
};

const store = (fx: Fixture, rest = '') => `/api/stores/${fx.storeId}${rest}`;
const order = (fx: Fixture, rest = '') => `/api/orders/${fx.orderId}${rest}`;

/** Every merchant route, by its OpenAPI method and path. */
const ROWS: Record<string, Row> = {
  // The caller's own account.
  'GET /api/auth/me': { account: true, call: (s) => s('GET', '/api/auth/me') },
  'GET /api/auth/account': { account: true, call: (s) => s('GET', '/api/auth/account') },
  'POST /api/auth/account/email': {
    account: true,
    call: (s) =>
      s('POST', '/api/auth/account/email', {
        email: `changed-${crypto.randomUUID().slice(0, 8)}@example.com`,
        currentPassword: 'correct horse battery',
      }),
  },
  'POST /api/auth/account/email/resend': {
    account: true,
    call: (s) => s('POST', '/api/auth/account/email/resend'),
  },
  'POST /api/auth/account/password': {
    account: true,
    call: (s) =>
      s('POST', '/api/auth/account/password', {
        currentPassword: 'correct horse battery',
        newPassword: 'another horse battery',
      }),
  },
  'GET /api/auth/account/sessions': {
    account: true,
    call: (s) => s('GET', '/api/auth/account/sessions'),
  },
  'DELETE /api/auth/account/sessions/{id}': {
    account: true,
    call: async (s) => {
      const sessions = (await s('GET', '/api/auth/account/sessions')).body;
      const id = Array.isArray(sessions) ? sessions[0]?.id : crypto.randomUUID();
      return s('DELETE', `/api/auth/account/sessions/${id}`);
    },
  },
  'POST /api/auth/account/sessions/end-others': {
    account: true,
    call: (s) => s('POST', '/api/auth/account/sessions/end-others'),
  },
  'POST /api/auth/account/totp/setup': {
    account: true,
    call: (s) => s('POST', '/api/auth/account/totp/setup'),
  },
  'POST /api/auth/account/totp/enable': {
    account: true,
    call: async (s) => {
      await s('POST', '/api/auth/account/totp/setup');
      return s('POST', '/api/auth/account/totp/enable', {
        code: '000000',
        currentPassword: 'correct horse battery',
      });
    },
  },
  'POST /api/auth/account/totp/disable': {
    account: true,
    call: (s) => s('POST', '/api/auth/account/totp/disable', { code: '000000' }),
  },
  'POST /api/stores': { account: true, call: (s) => s('POST', '/api/stores', storeForm()) },
  'POST /api/invitations/accept': {
    account: true,
    call: (s) => s('POST', '/api/invitations/accept', { token: 'x'.repeat(43) }),
  },
  'POST /api/api-keys': {
    account: true,
    call: (s) => s('POST', '/api/api-keys', { name: 'matrix', role: 'viewer' }),
  },
  'GET /api/api-keys': { account: true, call: (s) => s('GET', '/api/api-keys') },
  'DELETE /api/api-keys/{id}': {
    account: true,
    call: async (s) => {
      const made = await s('POST', '/api/api-keys', { name: 'to revoke', role: 'viewer' });
      return s('DELETE', `/api/api-keys/${made.body?.id ?? crypto.randomUUID()}`);
    },
  },
  'GET /api/analytics/daily': { account: true, call: (s) => s('GET', '/api/analytics/daily') },
  // Note: the orders of every store the caller is a member of (one store: 'read', below).
  'GET /api/orders': { account: true, call: (s) => s('GET', '/api/orders') },
  'POST /api/uploads/{kind}': {
    account: true,
    // Note: not an image: a caller let through gets 415/422, never 401/403/404.
    call: (s) => s('POST', '/api/uploads/logo', { not: 'an image' }),
  },
  'GET /api/x402/facilitator/supported': {
    account: true,
    call: (s) => s('GET', '/api/x402/facilitator/supported'),
  },

  // Public, with more for the store's team.
  'GET /api/stores': {
    more: 'read',
    call: (s) => s('GET', '/api/stores?mine=true'),
    seesMore: (r) =>
      Array.isArray(r.body) && r.body.some((s: { id: string }) => s.id === fx.storeId),
    anonymous: 401,
  },
  'GET /api/stores/{id}': {
    more: 'read',
    call: (s, fx) => s('GET', store(fx)),
    seesMore: (r) => r.status === 200 && 'role' in r.body,
  },
  'GET /api/stores/{id}/products': {
    more: 'read',
    call: (s, fx) => s('GET', store(fx, '/products')),
    seesMore: (r) =>
      r.status === 200 && (r.body.items ?? r.body).some((p: { id: string }) => p.id === fx.draftId),
  },
  'GET /api/products/{id}': {
    more: 'read',
    call: (s, fx) => s('GET', `/api/products/${fx.draftId}`),
    seesMore: (r) => r.status === 200,
  },
  'GET /api/orders/{id}/invoice.pdf': {
    more: 'read',
    // Note: the order is not paid: a caller let through learns it (409), others do not (404).
    call: (s, fx) => s('GET', order(fx, '/invoice.pdf')),
    // Note: unpaid: past the check, a member learns there is no invoice yet.
    seesMore: (r) =>
      ![401, 403, 404].includes(r.status) ||
      (r.status === 404 && r.body.error.message === INVOICE_MESSAGES.notIssued),
    anonymous: 401,
  },

  // The store.
  'PUT /api/stores/{id}': {
    permission: 'manage',
    call: (s, fx) => s('PUT', store(fx), { description: 'Mugs and cups' }),
  },
  'POST /api/stores/{id}/verification/challenge': {
    permission: 'payout',
    call: (s, fx) => s('POST', store(fx, '/verification/challenge')),
  },
  'POST /api/stores/{id}/verification': {
    permission: 'payout',
    call: (s, fx) =>
      s('POST', store(fx, '/verification'), {
        message: 'not the challenge',
        signature: `0x${'1'.repeat(130)}`,
      }),
  },
  'PUT /api/auth/account/stores/{id}/notifications': {
    owner: true,
    call: (s, fx) =>
      s('PUT', `/api/auth/account/stores/${fx.storeId}/notifications`, {
        notifyPaidOrders: true,
      }),
  },
  'GET /api/stores/{id}/analytics': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/analytics')),
  },
  'GET /api/stores/{id}/analytics/daily': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/analytics/daily')),
  },
  'GET /api/stores/{id}/money-movements': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/money-movements')),
  },
  'GET /api/stores/{id}/money-movements/csv': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/money-movements/csv')),
  },
  'GET /api/stores/{id}/payouts': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/payouts')),
  },
  'GET /api/stores/{id}/payouts/csv': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/payouts/csv')),
  },
  'GET /api/stores/{id}/x402-payers': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/x402-payers')),
  },
  'GET /api/stores/{id}/customers': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/customers')),
  },
  'POST /api/stores/{id}/customers/erase': {
    permission: 'manage',
    call: (s, fx) => s('POST', store(fx, '/customers/erase'), { email: 'nobody@example.com' }),
  },
  'GET /api/stores/{id}/audit': {
    permission: 'audit',
    call: (s, fx) => s('GET', store(fx, '/audit')),
  },
  'GET /api/stores/{id}/audit/csv': {
    permission: 'audit',
    call: (s, fx) => s('GET', store(fx, '/audit/csv')),
  },

  // Products and reviews.
  'POST /api/products': {
    permission: 'operate',
    call: (s, fx) =>
      s('POST', '/api/products', { storeId: fx.storeId, title: 'Cup', priceUsdc: '3' }),
  },
  'PUT /api/products/{id}': {
    permission: 'operate',
    call: (s, fx) => s('PUT', `/api/products/${fx.productId}`, { title: 'Mug' }),
  },
  'DELETE /api/products/{id}': {
    permission: 'operate',
    call: async (s, fx) => s('DELETE', `/api/products/${await fx.product()}`),
  },
  'PUT /api/products/{id}/file': {
    permission: 'operate',
    // Note: no file: a caller let through gets 4xx about the body, never 401/403/404.
    call: (s, fx) => s('PUT', `/api/products/${fx.productId}/file`, { not: 'a file' }),
  },
  'GET /api/stores/{id}/reviews': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/reviews')),
  },
  'PATCH /api/reviews/{id}': {
    permission: 'operate',
    call: (s, fx) => s('PATCH', `/api/reviews/${fx.reviewId}`, { hidden: true }),
  },

  // Discounts.
  'GET /api/stores/{id}/discounts': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/discounts')),
  },
  'POST /api/stores/{id}/discounts': {
    permission: 'manage',
    call: (s, fx) =>
      s('POST', store(fx, '/discounts'), {
        code: `M${crypto.randomUUID().slice(0, 8)}`,
        kind: 'percent',
        percentBps: 500,
      }),
  },
  'PUT /api/stores/{id}/discounts/{discountId}': {
    permission: 'manage',
    call: (s, fx) =>
      s('PUT', store(fx, `/discounts/${fx.discountId}`), {
        code: 'TEAM10',
        kind: 'percent',
        percentBps: 1000,
      }),
  },
  'DELETE /api/stores/{id}/discounts/{discountId}': {
    permission: 'manage',
    call: async (s, fx) => s('DELETE', store(fx, `/discounts/${await fx.discount()}`)),
  },

  // The team.
  'GET /api/stores/{id}/team': {
    permission: 'team',
    call: (s, fx) => s('GET', store(fx, '/team')),
  },
  'POST /api/stores/{id}/invitations': {
    permission: 'team',
    call: (s, fx) =>
      s('POST', store(fx, '/invitations'), {
        email: `invited-${crypto.randomUUID().slice(0, 8)}@example.com`,
        role: 'viewer',
      }),
  },
  'DELETE /api/stores/{id}/invitations/{invitationId}': {
    permission: 'team',
    call: async (s, fx) => s('DELETE', store(fx, `/invitations/${await fx.invitation()}`)),
  },
  'PATCH /api/stores/{id}/members/{userId}': {
    permission: 'team',
    call: async (s, fx) =>
      s('PATCH', store(fx, `/members/${await fx.member()}`), { role: 'staff' }),
  },
  'DELETE /api/stores/{id}/members/{userId}': {
    permission: 'team',
    call: async (s, fx) => s('DELETE', store(fx, `/members/${await fx.member()}`)),
  },

  // Orders.
  'PATCH /api/orders/{id}': {
    permission: 'operate',
    call: (s, fx) => s('PATCH', order(fx), { status: 'processing' }),
  },
  'GET /api/orders/{id}/detail': {
    permission: 'read',
    call: (s, fx) => s('GET', order(fx, '/detail')),
  },
  'POST /api/orders/{id}/shipment': {
    permission: 'operate',
    call: (s, fx) => s('POST', order(fx, '/shipment'), { carrier: 'UPS', trackingNumber: '1Z999' }),
  },
  'GET /api/orders/{id}/activity': {
    permission: 'read',
    call: (s, fx) => s('GET', order(fx, '/activity')),
  },
  'GET /api/orders/{id}/forwarding': {
    permission: 'read',
    call: (s, fx) => s('GET', order(fx, '/forwarding')),
  },
  'POST /api/orders/{id}/forwarding/retry': {
    permission: 'operate',
    call: (s, fx) => s('POST', order(fx, '/forwarding/retry')),
  },
  'GET /api/orders/{id}/refunds': {
    permission: 'read',
    call: (s, fx) => s('GET', order(fx, '/refunds')),
  },
  'POST /api/orders/{id}/refunds': {
    permission: 'refund',
    // Note: the order is not paid: a caller let through gets 409, not a refusal.
    call: (s, fx) => s('POST', order(fx, '/refunds'), {}),
  },
  'POST /api/orders/{id}/accept-underpaid': {
    permission: 'refund',
    call: (s, fx) => s('POST', order(fx, '/accept-underpaid')),
  },
  'POST /api/orders/{id}/refunds/{refundId}/sent': {
    permission: 'refund',
    call: (s, fx) =>
      s('POST', order(fx, `/refunds/${crypto.randomUUID()}/sent`), {
        txHash: `0x${'3'.repeat(64)}`,
      }),
    // Note: past the order's check, the refund itself is looked for (there is none).
    letThrough: (r) => r.status === 404 && r.body.error.message === 'Refund not found',
  },

  // Links, webhooks, checkout sessions and x402.
  'GET /api/stores/{id}/link-secret': {
    permission: 'manage',
    call: (s, fx) => s('GET', store(fx, '/link-secret')),
  },
  'POST /api/stores/{id}/link-secret/rotate': {
    permission: 'manage',
    call: (s, fx) => s('POST', store(fx, '/link-secret/rotate')),
  },
  'POST /api/stores/{id}/signed-links': {
    permission: 'manage',
    call: (s, fx) =>
      s('POST', store(fx, '/signed-links'), {
        link: new URLSearchParams({
          storeName: 'Corner Shop',
          items: JSON.stringify([{ title: 'Mug', priceUsdc: '12.50', quantity: 1 }]),
        }).toString(),
      }),
  },
  'GET /api/stores/{id}/webhook': {
    permission: 'manage',
    call: (s, fx) => s('GET', store(fx, '/webhook')),
  },
  'PUT /api/stores/{id}/webhook': {
    permission: 'manage',
    call: (s, fx) => s('PUT', store(fx, '/webhook'), { url: 'https://hooks.example/store' }),
  },
  'GET /api/stores/{id}/webhook/secret': {
    permission: 'manage',
    call: (s, fx) => s('GET', store(fx, '/webhook/secret')),
  },
  'POST /api/stores/{id}/webhook/rotate-secret': {
    permission: 'manage',
    call: (s, fx) => s('POST', store(fx, '/webhook/rotate-secret')),
  },
  'POST /api/stores/{id}/webhook/test': {
    permission: 'manage',
    call: (s, fx) => s('POST', store(fx, '/webhook/test'), { eventType: 'order.paid' }),
  },
  'GET /api/stores/{id}/webhook-deliveries': {
    permission: 'read',
    call: (s, fx) => s('GET', store(fx, '/webhook-deliveries')),
  },
  'POST /api/webhook-deliveries/{id}/redeliver': {
    permission: 'manage',
    call: (s, fx) => s('POST', `/api/webhook-deliveries/${fx.deliveryId}/redeliver`),
  },
  'POST /api/checkout-sessions': {
    permission: 'operate',
    call: (s, fx) =>
      s('POST', '/api/checkout-sessions', {
        storeId: fx.storeId,
        items: [{ title: 'Linen shirt', priceUsdc: '20.00', quantity: 1 }],
        returnUrl: 'https://shop.example/thanks',
      }),
  },
  'GET /api/checkout-sessions/{id}': {
    permission: 'read',
    call: (s, fx) => s('GET', `/api/checkout-sessions/${fx.checkoutSessionId}`),
  },
  'POST /api/x402/pay-to': {
    permission: 'operate',
    call: (s, fx) => s('POST', '/api/x402/pay-to', { storeId: fx.storeId, amountUsdc: '0.01' }),
  },
  'POST /api/x402/facilitator/verify': {
    permission: 'operate',
    call: (s, fx) => s('POST', '/api/x402/facilitator/verify', facilitatorBody(fx.payTo)),
    // Note: x402's own answer: a deposit address of no store of the caller is an invalid payload.
    nonMember: (r) => r.status === 200 && JSON.stringify(r.body).includes('invalid_payload'),
  },
  'POST /api/x402/facilitator/settle': {
    permission: 'operate',
    call: (s, fx) => s('POST', '/api/x402/facilitator/settle', facilitatorBody(fx.payTo)),
    // Note: x402's own answer: a deposit address of no store of the caller is an invalid payload.
    nonMember: (r) => r.status === 200 && JSON.stringify(r.body).includes('invalid_payload'),
  },
};

/** Who calls: a member (by session, or an owner's key with a lesser role), or an outsider. */
interface Caller {
  name: string;
  /** The role it acts with in the store; none for a non-member or an anonymous client. */
  role: StoreRole | null;
  /** True when it calls with an API key only (no session). */
  keyOnly: boolean;
  cookie?: string;
  /** Its own key, for the routes that take an API key only. */
  key?: string;
}

let fx: Fixture;
const callers: Caller[] = [];

/** The routes of the OpenAPI document that need a signed-in caller, with who may call them. */
let documented: Map<string, { sessionOnly: boolean; keyOnly: boolean }>;

function sender(caller: Caller, route: { keyOnly: boolean }): Send {
  const headers: Record<string, string> = {};
  if (caller.cookie && !caller.keyOnly && !route.keyOnly) headers.cookie = caller.cookie;
  if (caller.key && (caller.keyOnly || route.keyOnly))
    headers.authorization = `Bearer ${caller.key}`;
  return async (method, path, body) => {
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await t.app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    // Note: CSV and PDF answers are kept as text.
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: response.status, body: parsed, headers: response.headers };
  };
}

const keyFor = async (cookie: string, role: StoreRole, storeId?: string) => {
  const made = await apiClient(t.app, cookie).post('/api/api-keys', {
    name: `matrix ${role}`,
    role,
    ...(storeId ? { storeId } : {}),
  });
  expect(made.status).toBe(201);
  return made.body.key as string;
};

beforeAll(async () => {
  const owner = t.owner.api;
  const doc = (await (
    await t.app.handle(new Request('http://localhost/api/openapi/json'))
  ).json()) as { paths: Record<string, Record<string, { security: object[] }>> };
  documented = new Map();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      if (op.security.length === 0) continue;
      const schemes = op.security.map((s) => Object.keys(s).join());
      documented.set(`${method.toUpperCase()} ${path}`, {
        sessionOnly: !schemes.includes('apiKey'),
        keyOnly: !schemes.includes('sessionCookie'),
      });
    }

  // The indexer's table as Ponder makes it (ponder.schema.ts), empty: the books read it.
  const indexer = postgres(t.testDb.roleUrls.indexer, { max: 1, onnotice: () => {} });
  await indexer.unsafe(`
    create schema if not exists indexer;
    create table indexer.transfer (id text primary key, "from" text not null, "to" text not null,
      value numeric(78) not null, block_number numeric(78) not null,
      block_timestamp numeric(78) not null, tx_hash text not null, log_index integer not null)`);
  await indexer.end();

  const made = (await owner.post('/api/stores', storeForm())).body;
  const product = (
    await owner.post('/api/products', { storeId: made.id, title: 'Mug', priceUsdc: '5' })
  ).body;
  const draft = (
    await owner.post('/api/products', {
      storeId: made.id,
      title: 'Draft',
      priceUsdc: '2',
      isPublished: false,
    })
  ).body;
  const items = [{ ...product, productId: product.id, quantity: 1 }];
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  const placed = (
    await t.shopper.post('/api/orders', {
      storeId: made.id,
      ...customer,
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
    })
  ).body;
  await t.shopper.post(`/api/orders/${placed.id}/assign-payment-wallet`, {});
  const [review] = await t.testDb.database.db
    .insert(reviews)
    .values({
      storeId: made.id,
      productId: product.id,
      orderId: placed.id,
      rating: 5,
      body: 'Good mug',
      authorName: 'Ada',
    })
    .returning({ id: reviews.id });
  const [delivery] = await t.testDb.database.db
    .insert(webhookDeliveries)
    .values({
      orderId: placed.id,
      storeId: made.id,
      eventType: 'order.paid',
      url: 'https://hooks.example/store',
      payload: '{}',
      status: 'failed',
      retryUntil: new Date(Date.now() + 3_600_000),
    })
    .returning({ id: webhookDeliveries.id });
  const discount = (
    await owner.post(`/api/stores/${made.id}/discounts`, {
      code: 'TEAM5',
      kind: 'percent',
      percentBps: 500,
    })
  ).body;
  const ownerKey = await keyFor(t.owner.cookie, 'owner');
  const bearer = { headers: { authorization: `Bearer ${ownerKey}` } };
  const payTo = await apiClient(t.app).post(
    '/api/x402/pay-to',
    { storeId: made.id, amountUsdc: '0.01' },
    bearer,
  );
  expect(payTo.status).toBe(201);
  const session = await owner.post('/api/checkout-sessions', {
    storeId: made.id,
    items: [{ title: 'Linen shirt', priceUsdc: '20.00', quantity: 1 }],
    returnUrl: 'https://shop.example/thanks',
  });
  expect(session.status).toBe(201);
  fx = {
    storeId: made.id,
    productId: product.id,
    draftId: draft.id,
    deliveryId: delivery?.id ?? '',
    orderId: placed.id,
    discountId: discount.id,
    reviewId: review?.id ?? '',
    payTo: payTo.body.payTo,
    checkoutSessionId: session.body.id,
    product: async () =>
      (await owner.post('/api/products', { storeId: made.id, title: 'Spare', priceUsdc: '1' })).body
        .id,
    discount: async () =>
      (
        await owner.post(`/api/stores/${made.id}/discounts`, {
          code: `D${crypto.randomUUID().slice(0, 8)}`,
          kind: 'fixed',
          amountUsdc: '1',
        })
      ).body.id,
    invitation: async () =>
      (
        await owner.post(`/api/stores/${made.id}/invitations`, {
          email: `pending-${crypto.randomUUID().slice(0, 8)}@example.com`,
          role: 'viewer',
        })
      ).body.id,
    member: async () => (await member(t, made.id, 'viewer')).id,
  };

  for (const role of ['admin', 'staff', 'viewer'] as const) {
    const joined = await member(t, made.id, role, role === 'staff' ? '20' : undefined);
    callers.push({
      name: role,
      role,
      keyOnly: false,
      cookie: joined.cookie,
      key: await keyFor(joined.cookie, role),
    });
  }
  callers.unshift({
    name: 'owner',
    role: 'owner',
    keyOnly: false,
    cookie: t.owner.cookie,
    key: ownerKey,
  });
  callers.push(
    {
      name: 'non-member',
      role: null,
      keyOnly: false,
      cookie: t.other.cookie,
      key: await keyFor(t.other.cookie, 'owner'),
    },
    { name: 'anonymous', role: null, keyOnly: false },
    {
      name: "owner's staff key",
      role: 'staff',
      keyOnly: true,
      key: await keyFor(t.owner.cookie, 'staff'),
    },
    {
      name: "owner's viewer key",
      role: 'viewer',
      keyOnly: true,
      key: await keyFor(t.owner.cookie, 'viewer', made.id),
    },
  );
}, 120_000);

const refusedStatuses = [401, 403, 404];

/** What `caller` must get from `key`, checked on its answer. */
async function check(key: string, row: Row, caller: Caller) {
  const route = documented.get(key);
  if (!route) throw new Error(`${key} is not in the document`);
  const send = sender(caller, route);
  const label = `${key} as ${caller.name}`;
  const response = await row.call(send, fx);
  const said = `${label}: ${response.status} ${JSON.stringify(response.body)?.slice(0, 200)}`;
  if (caller.name === 'anonymous') {
    if ('more' in row && row.anonymous === undefined) {
      expect(response.status, said).not.toBe(401);
      expect(row.seesMore(response), said).toBe(false);
    } else expect(response.status, said).toBe(401);
    return;
  }
  if (caller.keyOnly && route.sessionOnly) {
    expect(response.status, said).toBe(403);
    return;
  }
  if ('account' in row) {
    expect(refusedStatuses, said).not.toContain(response.status);
    return;
  }
  if ('owner' in row) {
    if (caller.role === 'owner') expect(refusedStatuses, said).not.toContain(response.status);
    else expect(response.status, said).toBe(404);
    return;
  }
  if ('more' in row) {
    const may = caller.role !== null && roleAllows(caller.role, row.more);
    expect(row.seesMore(response), said).toBe(may);
    return;
  }
  if (caller.role === null) {
    // Note: the same 404 as a store that does not exist: the store is not revealed.
    if (row.nonMember) expect(row.nonMember(response), said).toBe(true);
    else expect(response.status, said).toBe(404);
    return;
  }
  if (roleAllows(caller.role, row.permission)) {
    if (row.letThrough) expect(row.letThrough(response), said).toBe(true);
    else expect(refusedStatuses, said).not.toContain(response.status);
  } else {
    expect(response.status, said).toBe(403);
    expect(response.body.error.message, said).toBe(TEAM_MESSAGES.forbidden);
  }
}

describe('every merchant route has a row', () => {
  test('the rows are exactly the routes the document says need a signed-in caller', () => {
    expect(documented.size).toBeGreaterThan(70);
    expect([...documented.keys()].filter((key) => !(key in ROWS))).toEqual([]);
    expect(Object.keys(ROWS).filter((key) => !documented.has(key))).toEqual([]);
  });
});

describe('each caller on each merchant route', () => {
  // Note: the callers a route refuses first, then those it lets through (a call may change what
  // it touches: a deleted product is made afresh for each call).
  const order = [
    'anonymous',
    'non-member',
    "owner's viewer key",
    'viewer',
    "owner's staff key",
    'staff',
    'admin',
    'owner',
  ];
  for (const key of Object.keys(ROWS)) {
    const row = ROWS[key] as Row;
    if ('account' in row) continue;
    test(key, async () => {
      for (const name of order) {
        const caller = callers.find((c) => c.name === name);
        if (!caller) throw new Error(name);
        await check(key, row, caller);
      }
    });
  }
});

describe("routes of the caller's own account", () => {
  for (const key of Object.keys(ROWS)) {
    const row = ROWS[key] as Row;
    if (!('account' in row)) continue;
    test(`${key}: any signed-in caller; anonymous 401; a key as its document says`, async () => {
      const fresh = await account(t, 'self');
      const route = documented.get(key) ?? { keyOnly: false, sessionOnly: false };
      const freshKey = route.keyOnly ? await keyFor(fresh.cookie, 'owner') : undefined;
      for (const caller of [
        callers.find((c) => c.name === 'anonymous') as Caller,
        callers.find((c) => c.name === "owner's viewer key") as Caller,
        {
          name: 'a signed-in account',
          role: null,
          keyOnly: false,
          cookie: fresh.cookie,
          key: freshKey,
        },
      ])
        await check(key, row, caller);
    });
  }
});
