// The audit log on the real stack (Postgres, anvil with USDC, the indexer, the worker's loops):
// each change to money or access leaves one entry with its actor (user, or API key), address and
// User-Agent, and the fields before and after, never a secret; the store's owner reads them with
// filters, in cursor pages and as CSV; another merchant gets 404, a client without a session 401;
// and the API's database role can add entries but never change or remove one.
import { describe, expect, test } from 'bun:test';
import { TEAM_MESSAGES } from '@store/shared';
import { payUsdc } from '@store/stack/usdc';
import { and, eq } from 'drizzle-orm';
import postgres from 'postgres';
import { type Address, createPublicClient, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createApp } from '../src/app.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { emailOutbox } from '../src/db/schema.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient, newMerchant, sessionCookieOf, storeForm } from './support/client.ts';
import { orderOneMug, waitForForwarded, walletOf } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const BROWSER = 'Mozilla/5.0 (audit test)';

const t = useChainApi({
  confirmations: 2,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({ ...stack.env, CONFIRMATIONS: '2', FORWARDING_RETRY_BASE_MS: '100' }),
      database.db,
      { log: () => {} },
    ),
});

/** A client of an API behind a proxy (TRUST_PROXY), sending `cookie`, from `ip`, as a browser. */
function fromAddress(cookie: string, ip: string) {
  const config = { ...t.config, trustProxy: true };
  const chain = createPublicClient({ transport: http(config.chain.rpcUrl) });
  const client = apiClient(createApp({ db: t.database.db, config, chain }), cookie);
  const headers = { 'x-forwarded-for': ip, 'user-agent': BROWSER };
  return {
    get: (path: string) => client.get(path, { headers }),
    post: (path: string, body?: unknown, extra: Record<string, string> = {}) =>
      client.post(path, body, { headers: { ...headers, ...extra } }),
    put: (path: string, body?: unknown) => client.put(path, body, { headers }),
    delete: (path: string) => client.delete(path, { headers }),
  };
}

/** A client that sends `Authorization: Bearer <key>` and no cookie. */
const withKey = (key: string) => {
  const client = apiClient(t.app);
  const headers = { authorization: `Bearer ${key}` };
  return {
    get: (path: string) => client.get(path, { headers }),
    post: (path: string, body?: unknown) => client.post(path, body, { headers }),
  };
};

type Entry = {
  id: string;
  at: string;
  action: string;
  storeId: string | null;
  actor: { userId: string | null; username: string | null; apiKeyId: string | null };
  ip: string | null;
  userAgent: string | null;
  subjectId: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
};

const confirmedAt = (orderId: string, amount: string) =>
  waitUntil(async () => {
    const wallet = await walletOf(t.database.db, orderId);
    return wallet.receivedAmountUsdc === amount && wallet.detectedAmountUsdc === amount && wallet;
  }, `${amount} confirmed on ${orderId}`);

describe('the audit log', () => {
  test('store, webhook and key changes each leave one entry with who, from where and what changed', async () => {
    const owner = await newMerchant(t.app, 'audited');
    const api = fromAddress(owner.cookie, '203.0.113.7');
    const firstPayout = freshAddress();
    const store = (await api.post('/api/stores', storeForm({ paymentAddress: firstPayout }))).body;
    const audit = async (query = '') => {
      const answer = await owner.api.get(`/api/stores/${store.id}/audit${query}`);
      expect(answer.status).toBe(200);
      return answer.body as Entry[];
    };
    const nextPayout = freshAddress();
    const edits = [
      { paymentAddress: nextPayout },
      { slug: `${store.slug}-new` },
      { isActive: false },
      { isActive: true },
      { name: 'Not audited: a name' },
    ];
    for (const edit of edits)
      expect((await api.put(`/api/stores/${store.id}`, edit)).status).toBe(200);
    expect(
      (await api.put(`/api/stores/${store.id}/webhook`, { url: 'https://hooks.example/in' }))
        .status,
    ).toBe(200);
    const rotated = await api.post(`/api/stores/${store.id}/webhook/rotate-secret`);
    expect(rotated.status).toBe(200);
    const key = (await api.post('/api/api-keys', { name: 'Server' })).body;
    expect((await api.delete(`/api/api-keys/${key.id}`)).status).toBe(200);
    // Revoking again changes nothing, and records nothing.
    expect((await api.delete(`/api/api-keys/${key.id}`)).status).toBe(200);

    const entries = await audit();
    expect(entries.map((e) => e.action)).toEqual([
      'api_key.revoked',
      'api_key.created',
      'webhook.secret_rotated',
      'webhook.url_changed',
      'store.reactivated',
      'store.deactivated',
      'store.slug_changed',
      'store.payout_address_changed',
      'store.created',
    ]);
    for (const entry of entries) {
      expect(entry.actor).toMatchObject({ userId: owner.user.id, username: owner.user.username });
      expect(entry.actor.apiKeyId).toBeNull();
      expect(entry.ip).toBe('203.0.113.7');
      expect(entry.userAgent).toBe(BROWSER);
    }
    const byAction = (action: string) => entries.find((e) => e.action === action) as Entry;
    expect(byAction('store.payout_address_changed').changes).toEqual({
      paymentAddress: { before: firstPayout, after: nextPayout },
    });
    expect(byAction('store.slug_changed').changes).toEqual({
      slug: { before: store.slug, after: `${store.slug}-new` },
    });
    expect(byAction('store.deactivated').changes).toEqual({
      isActive: { before: true, after: false },
    });
    expect(byAction('webhook.url_changed').changes).toEqual({
      webhookUrl: { before: null, after: 'https://hooks.example/in' },
    });
    expect(byAction('api_key.created')).toMatchObject({
      storeId: null,
      subjectId: key.id,
      changes: { name: { before: null, after: 'Server' } },
    });
    // Never a secret: neither the webhook's nor the key's appear anywhere in the log.
    const everything = JSON.stringify(entries);
    expect(everything).not.toContain(rotated.body.secret);
    expect(everything).not.toContain(key.key);

    // Filters: by action, by actor, by days; pages by cursor.
    expect((await audit('?action=store.slug_changed')).map((e) => e.action)).toEqual([
      'store.slug_changed',
    ]);
    expect(await audit(`?actor=${owner.user.id}`)).toHaveLength(entries.length);
    expect(await audit(`?actor=${crypto.randomUUID()}`)).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await audit(`?from=${today}&to=${today}`)).toHaveLength(entries.length);
    expect(await audit('?to=2020-01-01')).toEqual([]);
    const pages: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await owner.api.get(`/api/stores/${store.id}/audit?limit=4${cursor}`);
      pages.push(...(page.body as Entry[]).map((e) => e.id));
      const next = page.headers.get('x-next-cursor');
      if (!next) break;
      cursor = `&cursor=${next}`;
    }
    expect(pages).toEqual(entries.map((e) => e.id));
    expect((await owner.api.get(`/api/stores/${store.id}/audit?cursor=bm9wZQ`)).status).toBe(422);
    expect((await owner.api.get(`/api/stores/${store.id}/audit?action=drop`)).status).toBe(422);

    // The CSV: a header and one line per entry, newest first.
    const csv = await t.app.handle(
      new Request(`http://localhost/api/stores/${store.id}/audit/csv?action=store.created`, {
        headers: { cookie: owner.cookie },
      }),
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'at,action,store_id,user_id,username,api_key_id,api_key_prefix,ip,user_agent,subject_id,changes',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`store.created,${store.id},${owner.user.id}`);
    expect(lines[1]).toContain(firstPayout);

    // Nobody else reads it: another merchant gets 404, a client without a session 401.
    const stranger = await newMerchant(t.app, 'stranger');
    for (const path of [`/api/stores/${store.id}/audit`, `/api/stores/${store.id}/audit/csv`]) {
      expect((await stranger.api.get(path)).status).toBe(404);
      expect((await apiClient(t.app).get(path)).status).toBe(401);
    }
    // …and the stranger's own log holds nothing of this store.
    const own = (await stranger.api.post('/api/stores', storeForm())).body;
    const theirs = (await stranger.api.get(`/api/stores/${own.id}/audit`)).body as Entry[];
    expect(theirs.map((e) => e.action)).toEqual(['store.created']);
  }, 60_000);

  test('a sign-in from a new browser is recorded once; the same browser again is not', async () => {
    const owner = await newMerchant(t.app, 'devices');
    const store = (await owner.api.post('/api/stores', storeForm())).body;
    const credentials = { username: owner.user.username, password: 'correct horse battery' };
    const signIns = async () =>
      (await owner.api.get(`/api/stores/${store.id}/audit?action=account.new_device_sign_in`))
        .body as Entry[];
    const first = await fromAddress('', '198.51.100.20').post('/api/auth/sign-in', credentials);
    expect(first.status).toBe(200);
    const device = /device=([\w-]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(device).toBeDefined();
    expect(sessionCookieOf(first)).toMatch(/^session=/);
    const again = await fromAddress(`device=${device}`, '198.51.100.21').post(
      '/api/auth/sign-in',
      credentials,
    );
    expect(again.status).toBe(200);
    const entries = await signIns();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      storeId: null,
      ip: '198.51.100.20',
      userAgent: BROWSER,
      actor: { userId: owner.user.id, username: owner.user.username },
    });
    // A wrong password records nothing; another browser is new again.
    expect(
      (
        await fromAddress('', '198.51.100.22').post('/api/auth/sign-in', {
          ...credentials,
          password: 'wrong horse battery',
        })
      ).status,
    ).toBe(401);
    expect(await signIns()).toHaveLength(1);
    await fromAddress('device=an-unknown-device-cookie-000', '198.51.100.23').post(
      '/api/auth/sign-in',
      credentials,
    );
    expect(await signIns()).toHaveLength(2);
  }, 60_000);

  test('refunds and accepting an underpaid order are recorded with their actor: user or API key', async () => {
    const owner = await newMerchant(t.app, 'refunder');
    const store = (
      await owner.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() }))
    ).body;
    const key = (await owner.api.post('/api/api-keys', { name: 'Back office' })).body;
    const byKey = withKey(key.key);
    const place = async () => {
      const { orderId } = await orderOneMug(owner, t.shopper, store.id);
      const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
        paymentChain: 'base',
      });
      return { orderId, address: wallet.body.paymentWallet.address as Address };
    };
    // A paid order, forwarded, refunded in part with the API key.
    const paid = await place();
    await payUsdc(t.stack.env, 1, paid.address, usdc('10.80'));
    await waitForForwarded(t.database.db, paid.orderId);
    const refunded = await byKey.post(`/api/orders/${paid.orderId}/refunds`, { amount: '2.50' });
    expect(refunded.status).toBe(200);
    // An underpaid order, accepted by the owner in a session.
    const short = await place();
    await payUsdc(t.stack.env, 2, short.address, usdc('6.00'));
    await confirmedAt(short.orderId, '6.000000');
    expect((await owner.api.post(`/api/orders/${short.orderId}/accept-underpaid`)).status).toBe(
      200,
    );
    // Another underpaid order, refunded from its deposit address by the owner.
    const back = await place();
    await payUsdc(t.stack.env, 3, back.address, usdc('4.00'));
    await confirmedAt(back.orderId, '4.000000');
    expect((await owner.api.post(`/api/orders/${back.orderId}/refunds`, {})).status).toBe(200);

    const entries = (await owner.api.get(`/api/stores/${store.id}/audit`)).body as Entry[];
    const money = entries.filter((e) => e.action.startsWith('order.'));
    expect(money.map((e) => [e.action, e.subjectId])).toEqual([
      ['order.refund_created', back.orderId],
      ['order.underpaid_accepted', short.orderId],
      ['order.refund_created', paid.orderId],
    ]);
    const [deposit, accepted, partial] = money as [Entry, Entry, Entry];
    expect(partial.actor).toMatchObject({ userId: owner.user.id, apiKeyId: key.id });
    expect(partial.changes).toMatchObject({
      reason: { before: null, after: 'merchant' },
      amountUsdc: { before: null, after: '2.500000' },
    });
    expect(accepted.actor).toMatchObject({ userId: owner.user.id, apiKeyId: null });
    expect(accepted.changes).toMatchObject({
      status: { before: 'pending', after: 'paid' },
      paymentException: { before: 'underpaid', after: 'accepted_underpaid' },
      receivedUsdc: { before: null, after: '6.000000' },
    });
    expect(deposit.changes).toMatchObject({
      reason: { before: null, after: 'underpaid' },
      amountUsdc: { before: null, after: '4.000000' },
    });
    // Filtered by the key: only what was done with it.
    const withTheKey = (await owner.api.get(`/api/stores/${store.id}/audit?actor=${key.id}`))
      .body as Entry[];
    expect(withTheKey.map((e) => e.action)).toEqual(['order.refund_created']);
  }, 120_000);

  test("the API's role may add and read entries, never change or remove them", async () => {
    const sql = postgres(t.stack.databaseUrls.api, { max: 1, onnotice: () => {} });
    const worker = postgres(t.stack.databaseUrls.worker, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ id: string }[]>`select id from audit_log limit 1`;
      expect(row?.id).toBeDefined();
      const denied = /permission denied/;
      await expect(
        sql`update audit_log set action = 'x' where id = ${row?.id ?? ''}`,
      ).rejects.toThrow(denied);
      await expect(sql`delete from audit_log where id = ${row?.id ?? ''}`).rejects.toThrow(denied);
      await expect(sql`truncate audit_log`).rejects.toThrow(denied);
      await expect(worker`select 1 from audit_log limit 1`).rejects.toThrow(denied);
      await expect(
        worker`insert into audit_log (action, account_id) select 'x', account_id from audit_log limit 1`,
      ).rejects.toThrow(denied);
    } finally {
      await sql.end({ timeout: 5 });
      await worker.end({ timeout: 5 });
    }
  });

  test('a staff member refunds up to their limit only; the refund names them', async () => {
    const owner = await newMerchant(t.app, 'limiter');
    const store = (
      await owner.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() }))
    ).body;
    const email = `staff-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signedUp = await t.shopper.post('/api/auth/sign-up', {
      username: `staff-${crypto.randomUUID().slice(0, 8)}`,
      password: 'correct horse battery',
      email,
    });
    const staff = apiClient(t.app, sessionCookieOf(signedUp));
    const invited = await owner.api.post(`/api/stores/${store.id}/invitations`, {
      email,
      role: 'staff',
      refundLimitUsdc: '2',
    });
    expect(invited.status).toBe(201);
    const [mail] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.kind, 'team_invitation')));
    const token = new URL(String(mail?.payload?.url)).searchParams.get('token');
    expect((await staff.post('/api/invitations/accept', { token })).status).toBe(200);

    const { orderId } = await orderOneMug(owner, t.shopper, store.id);
    const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    await payUsdc(t.stack.env, 1, wallet.body.paymentWallet.address as Address, usdc('10.80'));
    await waitForForwarded(t.database.db, orderId);
    for (const body of [{ amount: '2.01' }, {}]) {
      const above = await staff.post(`/api/orders/${orderId}/refunds`, body);
      expect(above.status).toBe(403);
      expect(above.body.error.message).toBe(TEAM_MESSAGES.refundAboveLimit);
    }
    const within = await staff.post(`/api/orders/${orderId}/refunds`, { amount: '2.00' });
    expect(within.status).toBe(200);
    const entries = (
      await owner.api.get(`/api/stores/${store.id}/audit?action=order.refund_created`)
    ).body;
    expect(entries).toHaveLength(1);
    expect(entries[0].actor.userId).toBe(signedUp.body.user.id);
    expect(entries[0].changes.amountUsdc.after).toBe('2.000000');
  }, 90_000);
});
