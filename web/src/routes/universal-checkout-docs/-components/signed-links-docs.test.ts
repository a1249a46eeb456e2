// The docs' signing example, run as written: its link verifies with the shared checker, and an
// edit of the price does not.
import { createHmac } from 'node:crypto';
import { linkSignaturePartsOf, verifyLinkSignature } from '@store/shared';
import { describe, expect, it } from 'vitest';
import { SIGNING_EXAMPLE } from './signed-links-docs.tsx';

const STORE_ID = '7b0c1a52-9d8e-4f11-8a3b-2c4d5e6f7a8b';
const SECRET = `lsk_${'ab'.repeat(32)}`;

/** Runs the example (its import line aside) and returns the `url` it builds. */
function runExample(): string {
  const body = SIGNING_EXAMPLE.split('\n').slice(1).join('\n');
  const run = new Function(
    'createHmac',
    'PAYOUT_ADDRESS',
    'STORE_ID',
    'LINK_SECRET',
    'ORIGIN',
    `${body}\nreturn url;`,
  );
  return run(createHmac, `0x${'1'.repeat(40)}`, STORE_ID, SECRET, 'https://pay.example');
}

describe('the signing example of the docs', () => {
  it('is an import and five lines that build a link the checkout accepts', async () => {
    expect(SIGNING_EXAMPLE.split('\n')).toHaveLength(6);
    const url = runExample();
    expect(url.startsWith('https://pay.example/universal-checkout?')).toBe(true);
    const parts = linkSignaturePartsOf(url);
    if (parts.kind !== 'signed') throw new Error(`expected a signed link, got ${parts.kind}`);
    expect(parts.storeId).toBe(STORE_ID);
    expect(await verifyLinkSignature(parts, SECRET)).toBe(true);
  });

  it('makes a signature that an edited price breaks', async () => {
    const edited = runExample().replace('12.50', '0.01');
    const parts = linkSignaturePartsOf(edited);
    if (parts.kind !== 'signed') throw new Error(`expected a signed link, got ${parts.kind}`);
    expect(await verifyLinkSignature(parts, SECRET)).toBe(false);
  });
});
