// Links in emails never take their origin from a deployment's request headers.
import { describe, expect, test } from 'bun:test';
import type { AppError } from './errors.ts';
import { MAIL_ORIGIN_MISSING, mailOriginOf, mailOriginOrNull } from './public-origin.ts';

const forged = new Request('http://evil.example/api/auth/forgot-password', {
  headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
});

describe('mailOriginOf', () => {
  test('PUBLIC_URL wins over any Host or X-Forwarded-Host', () => {
    const config = { publicUrl: 'https://shop.example', trustProxy: true, localMode: false };
    expect(mailOriginOf(config, forged)).toBe('https://shop.example');
  });

  test('a deployment without PUBLIC_URL refuses (503) rather than mail the request host', () => {
    const config = { publicUrl: undefined, trustProxy: true, localMode: false };
    expect(() => mailOriginOf(config, forged)).toThrow(MAIL_ORIGIN_MISSING);
    try {
      mailOriginOf(config, forged);
    } catch (error) {
      expect((error as AppError).status).toBe(503);
    }
    expect(mailOriginOrNull(config, forged)).toBeNull();
  });

  test('local mode links to the origin it was reached at', () => {
    const local = new Request('http://localhost:3000/x', { headers: { host: 'localhost:3000' } });
    const config = { publicUrl: undefined, trustProxy: false, localMode: true };
    expect(mailOriginOf(config, local)).toBe('http://localhost:3000');
  });
});
