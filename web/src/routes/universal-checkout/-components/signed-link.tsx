// Signed checkout links on the checkout page: before the shopper fills the form, a link that
// carries a signature is checked by the API (the store's secret never reaches the browser); an
// altered one gets a card saying so instead of the form.
import { looksSigned, SIGNED_LINK_MESSAGES } from '@store/shared';
import { Link } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ApiError, apiRequest } from '../../../lib/api.ts';

/** Where the check of the opened link stands. */
export type SignedLinkState =
  /** No signature parameters: a hand-made link, used as it is. */
  | { kind: 'unsigned' }
  | { kind: 'checking' }
  /** The store signed exactly these parameters. */
  | { kind: 'verified'; storeName: string }
  /** Refused by the API: altered, or no longer paying the store. */
  | { kind: 'refused'; message: string }
  /** The API could not be asked (offline): the order itself is still checked when sent. */
  | { kind: 'unknown' };

/** The query of the link as the shopper opened it (what the seller signed). */
export function openedLinkQuery(): string {
  return typeof window === 'undefined' ? '' : window.location.search;
}

/** Checks `link` once with POST /api/universal-links/verify when it carries a signature. */
export function useSignedLinkCheck(link: string): SignedLinkState {
  const signed = looksSigned(link);
  const [state, setState] = useState<SignedLinkState>(
    signed ? { kind: 'checking' } : { kind: 'unsigned' },
  );
  useEffect(() => {
    if (!signed) return;
    const controller = new AbortController();
    apiRequest<{ signed: boolean; storeName?: string }>(
      'POST',
      '/api/universal-links/verify',
      { link },
      { signal: controller.signal },
    )
      .then((answer) =>
        setState(
          answer.signed
            ? { kind: 'verified', storeName: answer.storeName ?? '' }
            : { kind: 'unsigned' },
        ),
      )
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState(
          error instanceof ApiError && error.status === 422
            ? { kind: 'refused', message: error.text }
            : { kind: 'unknown' },
        );
      });
    return () => controller.abort();
  }, [link, signed]);
  return state;
}

/** Shown instead of the form when the API refused the signed link. */
export function LinkAlteredCard(props: { message: string }) {
  return (
    <main className="page page-centred">
      <section
        className="card message-card message-card-error"
        aria-labelledby="link-altered-title"
      >
        <h1 id="link-altered-title">This link can't be used</h1>
        <p role="alert">{props.message}</p>
        <p className="muted">
          Nothing was ordered and nothing was charged. The seller signed this link so that its
          price, items and payee can't be changed; a changed link is refused.
        </p>
        <div className="actions">
          <Link to="/" className="button">
            Go Home
          </Link>
        </div>
      </section>
    </main>
  );
}

/** A line above the form saying the seller signed the link's terms. */
export function SignedBadge() {
  return (
    <p className="muted small signed-link-badge" role="note">
      <ShieldCheck size={16} aria-hidden="true" /> {SIGNED_LINK_MESSAGES.signedBadge}
    </p>
  );
}
