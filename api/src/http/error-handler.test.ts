// The one error shape: validation messages from the shared schemas, 404s, and no leaked internals.
import { describe, expect, test } from 'bun:test';
import { CreateStoreSchema } from '@store/shared';
import { Elysia } from 'elysia';
import { errorHandler } from './error-handler.ts';
import { AppError } from './errors.ts';

const logged: unknown[] = [];
const app = new Elysia()
  .use(errorHandler((_, cause) => logged.push(cause)))
  .post('/stores', ({ body }) => body, { body: CreateStoreSchema })
  .get('/boom', () => {
    throw new Error('password=hunter2 at /srv/secret.ts:12');
  })
  .get('/conflict', () => {
    throw new AppError('stale_version', 'The store changed since you loaded it');
  });

const post = (body: string) =>
  app.handle(
    new Request('http://localhost/stores', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );

describe('error handler', () => {
  test('a schema failure is 422 with the spec message', async () => {
    const response = await post(JSON.stringify({ name: 'Shop', slug: 'Bad Slug' }));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: 'Slug can only contain lowercase letters, numbers, and hyphens',
      },
    });
  });

  test('malformed JSON is 400', async () => {
    const response = await post('{"name":');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });

  test('an unknown route is 404 in the same shape', async () => {
    const response = await app.handle(new Request('http://localhost/nowhere'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });

  test('an AppError keeps its status and message', async () => {
    const response = await app.handle(new Request('http://localhost/conflict'));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: { code: 'stale_version', message: 'The store changed since you loaded it' },
    });
  });

  test('an unexpected error is a generic 500: logged, never sent to the client', async () => {
    const response = await app.handle(new Request('http://localhost/boom'));
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('secret.ts');
    expect(JSON.parse(text).error.code).toBe('internal');
    expect(String(logged.at(-1))).toContain('hunter2');
  });
});
