// The store changes that decide where sales go, for an account with two-step verification on: a
// new store, a new payout address, a new slug. Each carries a fresh authenticator code, so it is
// sent at once (not through the offline outbox: a code lasts 30 seconds) and the dialog stays open
// with the server's message when the code is refused.
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
export function useStoreSecondFactor() {
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
/** What useStoreSecondFactor gives a form. */
export type StoreSecondFactor = ReturnType<typeof useStoreSecondFactor>;

/** The form values that decide where sales go. */
interface GuardedValues {
  paymentAddress: string;
  slug: string;
}

/** Whether saving the form (a new store, or these values edited) needs the code. */
export function needsStoreCode(
  store: MerchantStore | undefined,
  initial: GuardedValues,
  value: GuardedValues,
): boolean {
  return (
    store === undefined ||
    value.paymentAddress !== initial.paymentAddress ||
    value.slug !== initial.slug
  );
}

/** The code field, shown when saving the form needs it (`needed`). */
export function StoreCodeField(props: { factor: StoreSecondFactor; needed: boolean }) {
  if (!props.factor.enabled || !props.needed) return null;
  return (
    <SecondFactorField
      value={props.factor.code}
      onChange={props.factor.setCode}
      error={props.factor.error}
    />
  );
}

/**
 * Saves a new store, or an edit of its payout address or slug, with the code when the account
 * needs one: 'saved' (the dialog may close), 'kept' (refused: the dialog stays open with the
 * message), or 'outbox' when no code is needed and the outbox saves it as usual.
 */
export async function saveGuardedStoreChange(save: {
  factor: StoreSecondFactor;
  userId: string;
  store: MerchantStore | undefined;
  initial: GuardedValues;
  value: GuardedValues;
  body: Record<string, unknown>;
}): Promise<'outbox' | 'saved' | 'kept'> {
  const { factor, store } = save;
  if (!factor.enabled || !needsStoreCode(store, save.initial, save.value)) return 'outbox';
  factor.setError(undefined);
  const failure = store ? FAILURE_TOASTS.updateStore : FAILURE_TOASTS.createStore;
  try {
    if (store)
      await apiRequest(
        'PUT',
        `/api/stores/${encodeURIComponent(store.id)}`,
        { ...editedBody(save.initial, save.value, save.body), updatedAt: store.updatedAt },
        withSecondFactor(factor.code),
      );
    else await apiRequest('POST', '/api/stores', save.body, withSecondFactor(factor.code));
    await refreshStores(save.userId).catch(() => undefined);
    toast(store ? SUCCESS_TOASTS.storeUpdated : SUCCESS_TOASTS.storeCreated);
    factor.setCode('');
    return 'saved';
  } catch (error) {
    const message =
      error instanceof ApiError ? error.text : `Needs a connection. (${errorText(error)})`;
    factor.setError(message);
    toastError(failure, message);
    return 'kept';
  }
}
