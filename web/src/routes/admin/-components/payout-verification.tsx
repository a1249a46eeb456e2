// "Verify payout address": the merchant signs the API's EIP-4361 message with the payout wallet in
// this browser (EIP-6963 or window.ethereum); the storefront shows "Verified Store" while that
// address stays the payout address. Changing the payout address withdraws it.
import { type PayoutChallenge, PayoutChallengeSchema } from '@store/shared';
import { useState } from 'react';
import * as v from 'valibot';
import { cacheMerchantStore } from '../../../admin/cache.ts';
import { type MerchantStore, MerchantStoreSchema } from '../../../admin/types.ts';
import { ApiError, apiRequest, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { type Eip1193Provider, useInjectedWallets } from '../../../lib/injected-wallets.ts';
import { toast, toastError } from '../../../lib/toast.ts';

/** What the store answer says of its verification (fields of the owner view). */
interface VerificationFields {
  paymentAddress: string | null;
  verified?: boolean;
  verifiedAddress?: string | null;
  verifiedAt?: string | null;
}

/** Why signing stopped, in the merchant's words. */
class SigningStop extends Error {}

const hexOf = (text: string) =>
  `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Asks the wallet for its accounts and signs `challenge.message` with the payout address. */
async function signWithWallet(provider: Eip1193Provider, challenge: PayoutChallenge) {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as unknown;
  const list = Array.isArray(accounts) ? accounts.map(String) : [];
  const account = list.find((a) => a.toLowerCase() === challenge.address.toLowerCase());
  if (!account)
    throw new SigningStop(
      `Your wallet shared ${list[0] ?? 'no account'}, not the payout address ${challenge.address}. Switch to it in your wallet and try again.`,
    );
  // Note: personal_sign (EIP-191) of the exact text the API issued; the API recovers the signer.
  const signature = await provider.request({
    method: 'personal_sign',
    params: [hexOf(challenge.message), account],
  });
  if (typeof signature !== 'string') throw new SigningStop('Your wallet returned no signature.');
  return signature;
}

/** The walletʼs refusal (EIP-1193 code 4001) as a sentence; undefined for other failures. */
function rejection(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 4001 ? 'You declined to sign in your wallet. Nothing changed.' : undefined;
}

/** The verification card of the Settings tab. */
export function PayoutVerification(props: { userId: string; store: MerchantStore }) {
  const store = props.store as MerchantStore & VerificationFields;
  const wallets = useInjectedWallets();
  const [chosen, setChosen] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const wallet = wallets.find((known) => known.id === chosen) ?? wallets[0];
  const path = `/api/stores/${encodeURIComponent(store.id)}/verification`;

  const verify = async () => {
    if (!wallet) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const issued = v.parse(
        PayoutChallengeSchema,
        await apiRequest('POST', `${path}/challenge`, undefined, {
          idempotencyKey: newIdempotencyKey(),
        }),
      );
      const signature = await signWithWallet(wallet.provider, issued);
      const answer = await apiRequest(
        'POST',
        path,
        { message: issued.message, signature },
        { idempotencyKey: newIdempotencyKey() },
      );
      await cacheMerchantStore(props.userId, v.parse(MerchantStoreSchema, answer));
      toast({
        title: 'Payout address verified',
        description: 'Your store shows “Verified Store”.',
      });
    } catch (error) {
      const message =
        error instanceof SigningStop
          ? error.message
          : (rejection(error) ??
            (error instanceof ApiError
              ? errorText(error)
              : 'Verifying needs a connection and a wallet.'));
      setProblem(message);
      toastError('Payout address not verified', message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card store-verification" aria-labelledby="verification-title">
      <h2 id="verification-title">Verified Store</h2>
      {store.verified && store.verifiedAddress ? (
        <p data-testid="verification-status">
          <span className="badge badge-success">Verified</span> The payout address{' '}
          <code className="verified-address">{store.verifiedAddress}</code> signed on{' '}
          {store.verifiedAt
            ? new Date(store.verifiedAt).toLocaleDateString(undefined, { dateStyle: 'medium' })
            : 'record'}
          . Shoppers see “Verified Store” until you change the payout address.
        </p>
      ) : (
        <p data-testid="verification-status">
          Not verified. Prove that you control the payout address by signing a message with it;
          shoppers then see “Verified Store”. Signing costs nothing and sends no transaction.
        </p>
      )}
      {!store.paymentAddress ? (
        <p className="muted small">Set a payout address first (Edit store).</p>
      ) : !wallet ? (
        <p className="muted small">
          Open this page in a browser with a wallet extension holding{' '}
          <code className="verified-address">{store.paymentAddress}</code>.
        </p>
      ) : (
        <div className="actions actions-start">
          {wallets.length > 1 && (
            <label className="wallet-choice">
              <span>Wallet</span>
              <select
                value={wallet.id}
                disabled={busy}
                onChange={(event) => setChosen(event.target.value)}
              >
                {wallets.map((known) => (
                  <option key={known.id} value={known.id}>
                    {known.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <button type="button" className="button" disabled={busy} onClick={() => void verify()}>
            {busy
              ? 'Waiting for your wallet...'
              : store.verified
                ? 'Verify again'
                : 'Verify payout address'}
          </button>
        </div>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
