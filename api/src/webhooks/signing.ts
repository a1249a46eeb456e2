// Standard Webhooks signatures: v1 (HMAC-SHA256 with a store's `whsec_` secret, through the
// `standardwebhooks` library) and v1a (Ed25519 with the platform's `whsk_` key, whose public
// half `whpk_` anyone can fetch). Both sign `${id}.${timestamp}.${body}`.
import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { Webhook } from 'standardwebhooks';

/** The User-Agent of every webhook request. */
export const WEBHOOK_USER_AGENT = 'StorefrontWebhooks/1.0';

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/** A new store secret: `whsec_` and 32 random bytes in base64 (what the library expects). */
export function newWebhookSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** A new platform key pair: `whsk_` (32-byte Ed25519 seed) and `whpk_` (public key). */
export function newWebhookKeyPair(): { secretKey: string; publicKey: string } {
  const seed = ed25519.utils.randomSecretKey();
  return {
    secretKey: `whsk_${toBase64(seed)}`,
    publicKey: webhookPublicKeyOf(`whsk_${toBase64(seed)}`),
  };
}

function seedOf(secretKey: string): Uint8Array {
  if (!secretKey.startsWith('whsk_')) throw new Error('an Ed25519 webhook key starts with whsk_');
  const bytes = fromBase64(secretKey.slice('whsk_'.length));
  // Note: some tools store seed + public key (64 bytes); the seed is the first half.
  if (bytes.length !== 32 && bytes.length !== 64) throw new Error('an Ed25519 seed has 32 bytes');
  return bytes.slice(0, 32);
}

/** An Ed25519 seed as a PKCS #8 document: RFC 8410's fixed prefix, then the 32 bytes. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The runtime's key object of each `whsk_` key used. */
const signingKeys = new Map<string, KeyObject>();

/**
 * Signs with the runtime's own Ed25519 (about 40 times faster than the pure-JS curve, which still
 * derives and checks public keys). Note: Ed25519 signatures are deterministic (RFC 8032), so
 * both give the same bytes; the tests verify them with the pure-JS curve.
 */
function signEd25519(secretKey: string, content: Uint8Array): Uint8Array {
  let key = signingKeys.get(secretKey);
  if (!key) {
    const der = Buffer.concat([PKCS8_ED25519_PREFIX, seedOf(secretKey)]);
    key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    signingKeys.set(secretKey, key);
  }
  return sign(null, content, key);
}

/** The `whpk_` public key of a `whsk_` secret key. */
export function webhookPublicKeyOf(secretKey: string): string {
  return `whpk_${toBase64(ed25519.getPublicKey(seedOf(secretKey)))}`;
}

/** What a delivery is signed with. */
export type WebhookSigner =
  | { scheme: 'v1'; secrets: string[] }
  | { scheme: 'v1a'; secretKey: string };

/** The three Standard Webhooks headers of one attempt (the timestamp is the attempt's). */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs `payload` (the exact bytes sent) for message `id` at `at`. A store that just rotated its
 * secret gets one `v1` signature per secret, space-separated, as the spec allows.
 */
export function signWebhook(
  signer: WebhookSigner,
  id: string,
  at: Date,
  payload: string,
): SignedHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  let signature: string;
  if (signer.scheme === 'v1') {
    signature = signer.secrets.map((secret) => new Webhook(secret).sign(id, at, payload)).join(' ');
  } else {
    const content = new TextEncoder().encode(`${id}.${timestamp}.${payload}`);
    signature = `v1a,${toBase64(signEd25519(signer.secretKey, content))}`;
  }
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  };
}

/** Verifies a v1a signature header with a `whpk_` key (what an integrator does). */
export function verifyEd25519Webhook(
  publicKey: string,
  headers: SignedHeaders,
  payload: string,
): boolean {
  const key = fromBase64(publicKey.replace(/^whpk_/, ''));
  const content = new TextEncoder().encode(
    `${headers['webhook-id']}.${headers['webhook-timestamp']}.${payload}`,
  );
  return headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1a' || !signature) return false;
    return ed25519.verify(fromBase64(signature), content, key);
  });
}
