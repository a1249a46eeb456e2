// A store edit that changes the payout address of an account with two-step verification on: it
// carries a fresh authenticator code, so it is sent at once (not through the offline outbox: a code
// lasts 30 seconds) and the dialog stays open with the server's message when the code is refused.
import { FAILURE_TOASTS, SUCCESS_TOASTS } from '@store/shared';
import { useEffect, useState } from 'react';
import { refreshStores } from '../admin/cache.ts';
import { editedBody } from '../admin/form-values.ts';
import type { MerchantStore } from '../admin/types.ts';
import { ApiError, apiRequest, errorText } from '../lib/api.ts';
import { toast, toastError } from '../lib/toast.ts';
import { fetchAccount, withSecondFactor } from './api.ts';
import { SecondFactorField } from './second-factor-field.tsx';

/** The second-factor state of a store form: whether the account has it on, and the code typed. */
export function usePayoutSecondFactor() {
  const [enabled, setEnabled] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  useEffect(() => {
    fetchAccount().then(
      (account) => setEnabled(account.totpEnabled),
      () => undefined,
    );
  }, []);
  return { enabled, code, setCode, error, setError };
}
/** What usePayoutSecondFactor gives a form. */
export type PayoutSecondFactor = ReturnType<typeof usePayoutSecondFactor>;

/** The code field, shown when the form's payout address differs from the store's. */
export function PayoutCodeField(props: { factor: PayoutSecondFactor; changed: boolean }) {
  if (!props.factor.enabled || !props.changed) return null;
  return (
    <SecondFactorField
      value={props.factor.code}
      onChange={props.factor.setCode}
      error={props.factor.error}
    />
  );
}

/**
 * Saves an edit that changes the payout address with the code, when the account needs one:
 * 'saved' (the dialog may close), 'kept' (refused: the dialog stays open with the message), or
 * 'outbox' when no code is needed and the outbox saves it as usual.
 */
export async function savePayoutChange(save: {
  factor: PayoutSecondFactor;
  userId: string;
  store: MerchantStore | undefined;
  initial: { paymentAddress: string };
  value: { paymentAddress: string };
  body: Record<string, unknown>;
}): Promise<'outbox' | 'saved' | 'kept'> {
  const { factor, store } = save;
  if (!store || !factor.enabled || save.value.paymentAddress === save.initial.paymentAddress)
    return 'outbox';
  factor.setError(undefined);
  const changes = editedBody(save.initial, save.value, save.body);
  try {
    await apiRequest(
      'PUT',
      `/api/stores/${encodeURIComponent(store.id)}`,
      { ...changes, updatedAt: store.updatedAt },
      withSecondFactor(factor.code),
    );
    await refreshStores(save.userId).catch(() => undefined);
    toast(SUCCESS_TOASTS.storeUpdated);
    factor.setCode('');
    return 'saved';
  } catch (error) {
    const message =
      error instanceof ApiError ? error.text : `Needs a connection. (${errorText(error)})`;
    factor.setError(message);
    toastError(FAILURE_TOASTS.updateStore, message);
    return 'kept';
  }
}
