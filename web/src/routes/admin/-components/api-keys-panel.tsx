// The API keys tab of a store's admin page: the merchant's secret keys (they belong to the account),
// created with a name, the most they may do (the merchant's role in this store or less, as the API
// enforces) and the store they act on (this one or all), shown once with Copy, listed with their
// role, store, prefix and use, and revoked after a confirmation; both ask for an authenticator code
// once the account has two-step verification. Read from the API: keys need the network.

import {
  type ApiKey,
  type CreatedApiKey,
  roleAtMost,
  STORE_ROLES,
  type StoreRole,
} from '@store/shared';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { fetchAccount, secondFactorAsked } from '../../../account/api.ts';
import { SecondFactorField } from '../../../account/second-factor-field.tsx';
import { createApiKey, fetchApiKeys, revokeApiKey } from '../../../admin/api-keys-api.ts';
import { Modal } from '../../../admin/components/modal.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { ApiError, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';
import '../../../admin/table-cards.css';

const dateText = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/** What a key of each role may do, as the form says it. */
const KEY_ROLE_TEXTS: Record<StoreRole, string> = {
  owner: 'Everything your role allows',
  admin: 'Admin: everything but the team and the payout address',
  staff: 'Staff: orders, fulfilment, products and refunds',
  viewer: 'Viewer: reads only',
};

/** Keys of the signed-in merchant, and this store's id for the session body. */
export function ApiKeysPanel(props: {
  storeId: string;
  /** The merchant's role in this store: a key may do that or less. */
  role: StoreRole;
  /** Store names by id, for the list's Store column. */
  storeNames: Record<string, string>;
}) {
  const id = useId();
  const roles = STORE_ROLES.filter((role) => roleAtMost(role, props.role));
  const [keyRole, setKeyRole] = useState<StoreRole>(props.role);
  const [scope, setScope] = useState<'store' | 'all'>('store');
  const [keys, setKeys] = useState<ApiKey[]>();
  const [failed, setFailed] = useState<string>();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [busy, setBusy] = useState(false);
  // Note: asked when the account has two-step verification on, or when the API asked for it.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  useEffect(() => {
    fetchAccount().then(
      (account) => account.totpEnabled && setNeedsCode(true),
      () => undefined,
    );
  }, []);
  /** Whether the API refused for the code: the field shows with its message. */
  const codeRefused = (error: unknown) => {
    if (!secondFactorAsked(error)) return false;
    setNeedsCode(true);
    setCodeError(errorText(error));
    return true;
  };

  const load = useCallback(
    () =>
      fetchApiKeys().then(
        (list) => {
          setKeys(list);
          setFailed(undefined);
        },
        (error: unknown) =>
          setFailed(error instanceof ApiError ? errorText(error) : 'Connect to see your API keys.'),
      ),
    [],
  );
  useEffect(() => void load(), [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    setNameError(undefined);
    setCodeError(undefined);
    try {
      const key = await createApiKey(
        name.trim(),
        newIdempotencyKey(),
        needsCode ? code : undefined,
        {
          role: keyRole,
          ...(scope === 'store' ? { storeId: props.storeId } : {}),
        },
      );
      setCreated(key);
      setName('');
      setCode('');
      await load();
    } catch (error) {
      const offline = !(error instanceof ApiError);
      const message = offline ? 'Creating a key needs a connection.' : errorText(error);
      if (!offline && !codeRefused(error)) setNameError(message);
      toastError('Failed to create API key', message);
    } finally {
      setCreating(false);
    }
  };

  const revoke = async (key: ApiKey) => {
    setBusy(true);
    setCodeError(undefined);
    try {
      await revokeApiKey(key.id, newIdempotencyKey(), needsCode ? code : undefined);
      toast({ title: 'API key revoked', description: `“${key.name}” stops working now.` });
      setRevoking(undefined);
      setCode('');
      await load();
    } catch (error) {
      codeRefused(error);
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to revoke API key',
        offline ? 'Revoking needs a connection.' : errorText(error),
      );
    } finally {
      setBusy(false);
    }
  };

  if (failed) return <p className="muted">{failed}</p>;
  return (
    <div className="api-keys">
      <section className="card" aria-labelledby={`${id}-create`}>
        <h2 id={`${id}-create`}>API keys</h2>
        <p className="muted small">
          Secret keys let your server create checkout sessions and read your orders with{' '}
          <code>Authorization: Bearer sk_…</code>. They belong to your account and do at most what
          your role allows, on this store or on all of yours. This store’s id for{' '}
          <code>storeId</code>:
        </p>
        <div className="secret-row">
          <code data-testid="store-id">{props.storeId}</code>
          <CopyButton text={props.storeId} label="Store id" />
        </div>
        <form className="api-key-form" onSubmit={(event) => void create(event)} noValidate>
          <div className="field">
            <label htmlFor={`${id}-name`}>Key name</label>
            <input
              id={`${id}-name`}
              placeholder="Production server"
              maxLength={120}
              value={name}
              onChange={(event) => setName(event.target.value)}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${id}-error` : undefined}
            />
            {nameError && (
              <p id={`${id}-error`} className="field-error" role="alert">
                {nameError}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-role`}>Role</label>
            <select
              id={`${id}-role`}
              value={keyRole}
              onChange={(event) => setKeyRole(event.target.value as StoreRole)}
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {role === props.role ? `${role} (yours)` : role}
                </option>
              ))}
            </select>
            <p className="muted small">{KEY_ROLE_TEXTS[keyRole]}; never more than your role.</p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-scope`}>Store</label>
            <select
              id={`${id}-scope`}
              value={scope}
              onChange={(event) => setScope(event.target.value as 'store' | 'all')}
            >
              <option value="store">This store only</option>
              <option value="all">All your stores</option>
            </select>
          </div>
          {needsCode && revoking === undefined && (
            <SecondFactorField value={code} onChange={setCode} error={codeError} />
          )}
          <div className="actions actions-start">
            <button type="submit" className="button" disabled={creating}>
              {creating ? 'Creating...' : 'Create API key'}
            </button>
          </div>
        </form>
        {created && (
          <div className="new-key" role="status" data-testid="new-api-key">
            <p>
              <strong>Copy your new key “{created.name}” now.</strong> You won’t be able to see it
              again.
            </p>
            <div className="secret-row">
              <code data-testid="api-key-secret">{created.key}</code>
              <div className="actions actions-start">
                <CopyButton text={created.key} label="API key" />
                <button
                  type="button"
                  className="button button-quiet button-small"
                  onClick={() => setCreated(undefined)}
                >
                  Done
                </button>
              </div>
            </div>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>Your keys</h2>
        {!keys ? (
          <p className="loading" role="status">
            Loading API keys...
          </p>
        ) : keys.length === 0 ? (
          <p className="muted">No API keys yet.</p>
        ) : (
          <div className="table-wrap table-cards">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Role</th>
                  <th scope="col">Store</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id} aria-label={`API key ${key.name}`}>
                    <th scope="row">{key.name}</th>
                    <td data-label="Key">
                      <code>{key.keyPrefix}…</code>
                    </td>
                    <td data-label="Role">{key.role}</td>
                    <td data-label="Store">
                      {key.storeId === null
                        ? 'All your stores'
                        : (props.storeNames[key.storeId] ?? 'A store you left')}
                    </td>
                    <td className="small" data-label="Created">
                      {dateText(key.createdAt)}
                    </td>
                    <td className="small" data-label="Last used">
                      {dateText(key.lastUsedAt)}
                    </td>
                    <td data-label="Actions">
                      {key.revokedAt ? (
                        <span className="badge order-status-neutral">Revoked</span>
                      ) : (
                        <button
                          type="button"
                          className="button button-quiet button-small"
                          onClick={() => setRevoking(key)}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Modal
        title="Revoke API key?"
        open={revoking !== undefined}
        onClose={() => setRevoking(undefined)}
      >
        <p>
          “{revoking?.name}” ({revoking?.keyPrefix}…) stops working at once: requests made with it
          get 401. This cannot be undone.
        </p>
        {needsCode && <SecondFactorField value={code} onChange={setCode} error={codeError} />}
        <div className="actions modal-actions">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => setRevoking(undefined)}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => revoking && void revoke(revoking)}
          >
            {busy ? 'Revoking...' : 'Revoke key'}
          </button>
        </div>
      </Modal>
    </div>
  );
}
