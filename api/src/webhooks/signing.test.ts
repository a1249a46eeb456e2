// Webhook signatures as a receiver checks them: v1a verifies with the published whpk_ key and is
// the very signature RFC 8032 gives for the key and message; v1 verifies with the store's secret.
import { describe, expect, test } from 'bun:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { Webhook } from 'standardwebhooks';
import {
  newWebhookKeyPair,
  newWebhookSecret,
  signWebhook,
  verifyEd25519Webhook,
} from './signing.ts';

const payload = JSON.stringify({ type: 'order.paid', orderId: 'ord_1', amount: '12.50' });
const at = new Date('2026-11-28T12:00:00Z');

describe('webhook signing', () => {
  test('v1a: verifies with the public key, equals the RFC 8032 signature, refuses a changed body', () => {
    const { secretKey, publicKey } = newWebhookKeyPair();
    const headers = signWebhook({ scheme: 'v1a', secretKey }, 'msg_1', at, payload);
    expect(headers['webhook-timestamp']).toBe(String(at.getTime() / 1000));
    expect(verifyEd25519Webhook(publicKey, headers, payload)).toBe(true);
    expect(verifyEd25519Webhook(publicKey, headers, payload.replace('12.50', '99.50'))).toBe(false);
    const seed = Buffer.from(secretKey.slice('whsk_'.length), 'base64');
    const expected = ed25519.sign(
      new TextEncoder().encode(`msg_1.${at.getTime() / 1000}.${payload}`),
      seed,
    );
    expect(headers['webhook-signature']).toBe(`v1a,${Buffer.from(expected).toString('base64')}`);
    // A second key pair signs differently (no key is kept across keys).
    const other = newWebhookKeyPair();
    const again = signWebhook({ scheme: 'v1a', secretKey: other.secretKey }, 'msg_1', at, payload);
    expect(verifyEd25519Webhook(publicKey, again, payload)).toBe(false);
    expect(verifyEd25519Webhook(other.publicKey, again, payload)).toBe(true);
  });

  test('v1: the store secret verifies with the Standard Webhooks library, one signature per secret', () => {
    const [old, current] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signWebhook({ scheme: 'v1', secrets: [old, current] }, 'msg_2', at, payload);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    // Note: the library refuses a timestamp more than 5 minutes from its clock: it reads it then.
    const realNow = Date.now;
    Date.now = () => at.getTime();
    try {
      expect(new Webhook(current).verify(payload, headers)).toEqual(JSON.parse(payload));
      expect(new Webhook(old).verify(payload, headers)).toEqual(JSON.parse(payload));
      expect(() => new Webhook(newWebhookSecret()).verify(payload, headers)).toThrow();
    } finally {
      Date.now = realNow;
    }
  });
});
