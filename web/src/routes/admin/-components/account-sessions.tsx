// The account page's sessions: every device signed in (its browser, since when, last seen, this
// device marked), each ended on its own, or all but this one at once.
import { type AccountSession, describeUserAgent } from '@store/shared';
import { useCallback, useEffect, useId, useState } from 'react';
import { endOtherSessions, endSession, fetchSessions } from '../../../account/api.ts';
import { ApiError, errorText } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const failure = (error: unknown) =>
  error instanceof ApiError ? error.text : `Needs a connection. (${errorText(error)})`;

/** Sessions card of the account page. */
export function SessionsSection() {
  const id = useId();
  const [sessions, setSessions] = useState<AccountSession[]>();
  const [failed, setFailed] = useState<string>();
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    () =>
      fetchSessions().then(
        (list) => {
          setSessions(list);
          setFailed(undefined);
        },
        (error: unknown) => setFailed(failure(error)),
      ),
    [],
  );
  useEffect(() => void load(), [load]);

  const end = async (work: () => Promise<string>, title: string) => {
    setBusy(true);
    try {
      toast({ title, description: await work() });
      await load();
    } catch (error) {
      toastError('Could not end the session', failure(error));
    } finally {
      setBusy(false);
    }
  };
  const others = sessions?.filter((s) => !s.current).length ?? 0;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Where you’re signed in</h2>
      {failed && <p className="muted">{failed}</p>}
      {!sessions && !failed && (
        <p className="loading" role="status">
          Loading sessions...
        </p>
      )}
      {sessions && (
        <ul className="account-list">
          {sessions.map((session) => (
            <li key={session.id} aria-label={`Session ${describeUserAgent(session.userAgent)}`}>
              <div>
                <strong>{describeUserAgent(session.userAgent)}</strong>{' '}
                {session.current && <span className="badge badge-success">This device</span>}
                <div className="muted small">
                  Signed in {when(session.createdAt)} · last seen {when(session.lastSeenAt)}
                </div>
              </div>
              {!session.current && (
                <button
                  type="button"
                  className="button button-quiet button-small"
                  disabled={busy}
                  onClick={() => void end(() => endSession(session.id), 'Session ended')}
                >
                  End session
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others > 0 && (
        <div className="actions actions-start">
          <button
            type="button"
            className="button button-quiet"
            disabled={busy}
            onClick={() => void end(endOtherSessions, 'Other sessions ended')}
          >
            End all other sessions
          </button>
        </div>
      )}
    </section>
  );
}
