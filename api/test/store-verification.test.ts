// "Verified Store" on a real Postgres: the payout wallet signs the EIP-4361 message the API issued
// (single-use nonce, this origin, this store, unexpired); the badge holds while that address is
// the payout address. Anonymous clients and other merchants are refused.
import { describe, expect, test } from 'bun:test';
import { PAYOUT_VERIFICATION_MESSAGES as M } from '@store/shared';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { issuePayoutChallenge } from '../src/modules/stores/verification.ts';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

async function storePaidTo(address: string) {
  const created = await t.owner.api.post('/api/stores', storeForm({ paymentAddress: address }));
  return created.body as { id: string; slug: string; updatedAt: string };
}
const challenge = async (storeId: string) =>
  (await t.owner.api.post(`/api/stores/${storeId}/verification/challenge`)).body as {
    message: string;
    address: string;
  };

describe('verifying the payout address', () => {
  test('the payout wallet signs; the store shows as verified until the address changes', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const store = await storePaidTo(wallet.address);
    expect((await t.shopper.get(`/api/stores/${store.slug}`)).body.verified).toBe(false);

    const issued = await challenge(store.id);
    expect(issued.address).toBe(wallet.address);
    expect(issued.message).toStartWith(
      'localhost wants you to sign in with your Ethereum account:',
    );
    expect(issued.message).toContain(`(${store.slug})`);
    expect(issued.message).toContain(`- http://localhost/store/${store.slug}`);
    const signature = await wallet.signMessage({ message: issued.message });
    const verified = await t.owner.api.post(`/api/stores/${store.id}/verification`, {
      message: issued.message,
      signature,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ verified: true, verifiedAddress: wallet.address });
    expect((await t.shopper.get(`/api/stores/${store.slug}`)).body.verified).toBe(true);

    // The same signed message again: its nonce is spent.
    const replay = await t.owner.api.post(`/api/stores/${store.id}/verification`, {
      message: issued.message,
      signature,
    });
    expect(replay.status).toBe(409);
    expect(replay.body.error.message).toBe(M.expired);

    // A new payout address withdraws the badge, and going back does not restore it.
    const other = privateKeyToAccount(generatePrivateKey());
    const moved = await t.owner.api.put(`/api/stores/${store.id}`, {
      paymentAddress: other.address,
    });
    expect(moved.body).toMatchObject({ verified: false, verifiedAddress: null, verifiedAt: null });
    expect((await t.shopper.get(`/api/stores/${store.slug}`)).body.verified).toBe(false);
    await t.owner.api.put(`/api/stores/${store.id}`, { paymentAddress: wallet.address });
    expect((await t.shopper.get(`/api/stores/${store.slug}`)).body.verified).toBe(false);
  });

  test('refuses another signer, another message, an expired one, and a store without payout', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const store = await storePaidTo(wallet.address);
    const issued = await challenge(store.id);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const wrongSigner = await t.owner.api.post(`/api/stores/${store.id}/verification`, {
      message: issued.message,
      signature: await stranger.signMessage({ message: issued.message }),
    });
    expect(wrongSigner.status).toBe(422);
    expect(wrongSigner.body.error.message).toBe(M.badSignature);

    // A message the payout wallet signed for another site (or another store) does not count.
    const elsewhere = issued.message.replaceAll('localhost', 'evil.example');
    const tampered = await t.owner.api.post(`/api/stores/${store.id}/verification`, {
      message: elsewhere,
      signature: await wallet.signMessage({ message: elsewhere }),
    });
    expect(tampered.status).toBe(422);
    expect(tampered.body.error.message).toBe(M.badMessage);
    const otherStore = await storePaidTo(wallet.address);
    const forOther = await t.owner.api.post(`/api/stores/${otherStore.id}/verification`, {
      message: issued.message,
      signature: await wallet.signMessage({ message: issued.message }),
    });
    expect(forOther.status).toBe(422);

    const old = await issuePayoutChallenge(
      t.testDb.database.db,
      { id: t.owner.user.id },
      store.id,
      {
        origin: 'http://localhost',
        chainId: (await t.shopper.get('/api/health')).body.chain.chainId,
      },
      new Date(Date.now() - 11 * 60 * 1000),
    );
    const expired = await t.owner.api.post(`/api/stores/${store.id}/verification`, {
      message: old.message,
      signature: await wallet.signMessage({ message: old.message }),
    });
    expect(expired.status).toBe(422);

    const bare = (await t.owner.api.post('/api/stores', storeForm({ paymentAddress: '' }))).body;
    const none = await t.owner.api.post(`/api/stores/${bare.id}/verification/challenge`);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe(M.noPayoutAddress);
    const junk = await t.owner.api.post(`/api/stores/${store.id}/verification`, {
      message: 'hello',
      signature: '0x1234',
    });
    expect(junk.status).toBe(422);
  });

  test('anonymous clients and other merchants are refused', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const store = await storePaidTo(wallet.address);
    expect((await t.shopper.post(`/api/stores/${store.id}/verification/challenge`)).status).toBe(
      401,
    );
    expect((await t.other.api.post(`/api/stores/${store.id}/verification/challenge`)).status).toBe(
      404,
    );
    const issued = await challenge(store.id);
    const body = {
      message: issued.message,
      signature: await wallet.signMessage({ message: issued.message }),
    };
    expect((await t.shopper.post(`/api/stores/${store.id}/verification`, body)).status).toBe(401);
    expect((await t.other.api.post(`/api/stores/${store.id}/verification`, body)).status).toBe(404);
    // The owner can still use it: the refusals spent nothing.
    expect((await t.owner.api.post(`/api/stores/${store.id}/verification`, body)).status).toBe(200);
  });
});
