// Calls the API in-process (`app.handle`) the way the web client does: JSON bodies and the cookie.
import { DEFAULT_TAX_RATE_BPS, defaultShippingOptions } from '@store/shared';
import type { App } from '../../src/app.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them.
type Json = any;

/** A decoded response. */
export interface ApiResponse<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

/** Options of one call. */
export interface CallOptions {
  body?: unknown;
  /** The `session=...` cookie of a signed-in merchant. */
  cookie?: string;
  headers?: Record<string, string>;
}

/** A small client over one app; `as(cookie)` gives the same client signed in. */
export function apiClient(app: App, defaultCookie?: string) {
  const call = async <T = Json>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    const cookie = options.cookie ?? defaultCookie;
    if (cookie) headers.cookie = cookie;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    // Note: the host must be `localhost`: a one-letter host breaks Elysia's path parsing.
    const response = await app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      }),
    );
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      headers: response.headers,
    };
  };
  return {
    call,
    get: <T = Json>(path: string, options?: CallOptions) => call<T>('GET', path, options),
    post: <T = Json>(path: string, body?: unknown, options?: CallOptions) =>
      call<T>('POST', path, { ...options, body }),
    put: <T = Json>(path: string, body?: unknown, options?: CallOptions) =>
      call<T>('PUT', path, { ...options, body }),
    patch: <T = Json>(path: string, body?: unknown, options?: CallOptions) =>
      call<T>('PATCH', path, { ...options, body }),
    delete: <T = Json>(path: string, options?: CallOptions) => call<T>('DELETE', path, options),
  };
}

/** The API client type. */
export type ApiClient = ReturnType<typeof apiClient>;

/** The `session=...` pair of a response's Set-Cookie, for the next requests. */
export function sessionCookieOf(response: ApiResponse): string {
  const header = response.headers.get('set-cookie') ?? '';
  const pair = header.split(';')[0] ?? '';
  if (!pair.startsWith('session=') || pair === 'session=') throw new Error('no session cookie');
  return pair;
}

let counter = 0;

/** Signs up a new merchant with a unique name and returns its client and user. */
export async function newMerchant(app: App, prefix = 'merchant') {
  counter += 1;
  const username = `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const response = await apiClient(app).post('/api/auth/sign-up', {
    username,
    password: 'correct horse battery',
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  const cookie = sessionCookieOf(response);
  return {
    cookie,
    user: response.body.user as { id: string; username: string },
    api: apiClient(app, cookie),
  };
}

/**
 * A valid store form for a merchant's new store, with a unique slug. Its settings are the journeys' (8%
 * tax; free, standard and express shipping), set explicitly: a store created without settings
 * charges no tax and ships free only (stores.test.ts).
 */
export function storeForm(patch: Record<string, unknown> = {}) {
  counter += 1;
  return {
    name: `Shop ${counter}`,
    slug: `shop-${counter}-${Math.random().toString(36).slice(2, 8)}`,
    paymentAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    taxRateBps: DEFAULT_TAX_RATE_BPS,
    shippingOptions: defaultShippingOptions(),
    ...patch,
  };
}
