import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet, apiRequest } from './api.ts';

const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);
afterEach(() => fetchMock.mockReset());

function lastCall() {
  const [url, init] = fetchMock.mock.calls.at(-1) ?? [];
  return { url, init: init as RequestInit & { headers: Record<string, string> } };
}

describe('apiRequest (docs/api.md#web-client-behaviour)', () => {
  it('sends cookies, sets JSON content type only with a body, and an Idempotency-Key on mutations', async () => {
    fetchMock.mockImplementation(async () => new Response('{"ok":true}', { status: 200 }));
    await apiGet(['/api/stores', 'my shop']);
    expect(lastCall().url).toBe('/api/stores/my%20shop');
    expect(lastCall().init.credentials).toBe('include');
    expect(lastCall().init.headers['content-type']).toBeUndefined();
    expect(lastCall().init.headers['idempotency-key']).toBeUndefined();

    await apiRequest('POST', '/api/orders', { a: 1 }, { idempotencyKey: 'key-1' });
    expect(lastCall().init.headers['content-type']).toBe('application/json');
    expect(lastCall().init.headers['idempotency-key']).toBe('key-1');
    expect(lastCall().init.body).toBe('{"a":1}');

    await apiRequest('POST', '/api/orders/1/assign-payment-wallet');
    expect(lastCall().init.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('raises non-OK responses as "status: text", preferring the API error message', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response('{"error":{"code":"not_found","message":"Order not found"}}', { status: 404 }),
    );
    const error = await apiGet(['/api/orders', 'x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('404: Order not found');
    expect((error as ApiError).code).toBe('not_found');

    fetchMock.mockResolvedValueOnce(new Response('upstream down', { status: 502 }));
    await expect(apiGet(['/api/x'])).rejects.toThrow('502: upstream down');

    fetchMock.mockResolvedValueOnce(
      new Response('', { status: 500, statusText: 'Internal Server Error' }),
    );
    await expect(apiGet(['/api/x'])).rejects.toThrow('500: Internal Server Error');
  });

  it('throws on 401 by default and answers null when asked to', async () => {
    fetchMock.mockImplementation(
      async () => new Response('{"error":{"message":"Sign in to continue"}}', { status: 401 }),
    );
    await expect(apiGet(['/api/auth/me'])).rejects.toThrow('401: Sign in to continue');
    expect(await apiGet(['/api/auth/me'], { on401: 'returnNull' })).toBeNull();
  });
});
