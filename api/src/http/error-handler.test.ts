// The one error shape: validation messages from the shared schemas, 404s, and no leaked internals.
import { describe, expect, test } from 'bun:test';
import { CreateStoreSchema } from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { errorHandler } from './error-handler.ts';
import { AppError } from './errors.ts';
import { declaredResponse } from './response-contract.ts';

const logged: unknown[] = [];
const AnswerSchema = v.object({ id: v.string(), at: v.pipe(v.string(), v.isoTimestamp()) });
const at = new Date('2026-01-02T03:04:05.000Z');
const answers = {
  fits: { id: 'a', at },
  wrong: { id: 1, at },
  extra: { id: 'a', at, secret: 'whsec_hunter2' },
};
const app = new Elysia()
  .use(errorHandler((_, cause) => logged.push(cause)))
  .post('/stores', ({ body }) => body, { body: CreateStoreSchema })
  .get('/boom', () => {
    throw new Error('password=hunter2 at /srv/secret.ts:12');
  })
  .get('/conflict', () => {
    throw new AppError('stale_version', 'The store changed since you loaded it');
  })
  .get('/answer/:kind', ({ params }) => answers[params.kind as keyof typeof answers], {
    response: { 200: declaredResponse(AnswerSchema) },
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

  test('an answer that fits its declared response goes out as JSON (a date as its ISO string)', async () => {
    const response = await app.handle(new Request('http://localhost/answer/fits'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'a', at: '2026-01-02T03:04:05.000Z' });
  });

  test('an answer that does not fit, or names a field its schema does not, is a logged 500', async () => {
    for (const [kind, issue] of [
      ['wrong', 'id: Invalid type'],
      ['extra', 'Undocumented field .secret'],
    ] as const) {
      const response = await app.handle(new Request(`http://localhost/answer/${kind}`));
      const text = await response.text();
      expect(response.status, kind).toBe(500);
      expect(JSON.parse(text)).toEqual({
        error: { code: 'internal', message: 'Something went wrong on our side; please try again' },
      });
      expect(text).not.toContain('hunter2');
      const entry = logged.at(-1) as { route: string; issues: string[] };
      expect(entry.route).toBe(`GET /answer/${kind}`);
      expect(entry.issues.join('\n')).toContain(issue);
      expect(JSON.stringify(entry)).not.toContain('hunter2');
    }
  });
});
