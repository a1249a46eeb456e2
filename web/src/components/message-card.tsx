// Full-page cards for the not-found, error, empty and offline states (docs/messages.md#page-texts).
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api.ts';

/** A centred card with a heading, a line of text and its actions. */
export function MessageCard(props: {
  title: string;
  description?: string;
  children?: ReactNode;
  tone?: 'default' | 'error';
}) {
  return (
    <main className="page page-centred">
      <section
        className={`card message-card${props.tone === 'error' ? ' message-card-error' : ''}`}
        aria-labelledby="message-card-title"
      >
        <h1 id="message-card-title">{props.title}</h1>
        {props.description && <p className="muted">{props.description}</p>}
        {props.children && <div className="actions">{props.children}</div>}
      </section>
    </main>
  );
}

/** A not-found card (store, product or order) whose action is 'Return Home'. */
export function NotFoundCard(props: { title: string; description: string }) {
  return (
    <MessageCard title={props.title} description={props.description}>
      <Link to="/" className="button">
        Return Home
      </Link>
    </MessageCard>
  );
}

/** A page-level loading line, announced to screen readers. */
export function LoadingPage(props: { text: string }) {
  return (
    <main className="page page-centred">
      <p className="loading" role="status">
        <span className="spinner" aria-hidden="true" />
        {props.text}
      </p>
    </main>
  );
}

/**
 * Shown when a page's data could not be loaded: offline (no answer and no cached copy) unless the
 * server did answer, in which case its "status: text" message is shown.
 */
export function OfflineCard(props: { what: string; error?: unknown }) {
  // Note: fetch rejects with a TypeError only when no answer came back at all.
  const answered = props.error !== undefined && !(props.error instanceof TypeError);
  const reason = props.error instanceof ApiError ? ` (${props.error.message})` : '';
  return (
    <MessageCard
      title={answered ? 'Something went wrong' : "You're offline"}
      description={
        answered
          ? `This ${props.what} could not be loaded${reason}. Please try again.`
          : `This ${props.what} has not been saved on this device yet. Connect to the internet and try again.`
      }
      tone={answered ? 'error' : 'default'}
    >
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Try again
      </button>
    </MessageCard>
  );
}
