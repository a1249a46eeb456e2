// Route /verify-email?token=…: the emailed verification link. Opening it verifies the address it
// was sent to (once; the link works 24 hours), signed in or not.
import { createFileRoute, Link } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { verifyEmail } from '../account/api.ts';
import { MessageCard } from '../components/message-card.tsx';
import { ApiError } from '../lib/api.ts';

const SearchSchema = v.object({ token: v.optional(v.string(), '') });

export const Route = createFileRoute('/verify-email')({
  validateSearch: valibotValidator(SearchSchema),
  component: VerifyEmailPage,
});

function VerifyEmailPage() {
  const { token } = Route.useSearch();
  const [state, setState] = useState<{ ok: boolean; text: string }>();
  // Note: the link is single use: React's development double effect must not send it twice.
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setState({ ok: false, text: 'This link is incomplete: open the link from the email again.' });
      return;
    }
    verifyEmail(token).then(
      (text) => setState({ ok: true, text }),
      (error: unknown) =>
        setState({
          ok: false,
          text:
            error instanceof ApiError
              ? error.text
              : 'Could not reach the server. Check your connection and open the link again.',
        }),
    );
  }, [token]);

  if (!state)
    return (
      <MessageCard title="Verifying your email">
        <p className="loading" role="status">
          Verifying...
        </p>
      </MessageCard>
    );
  return (
    <MessageCard
      title={state.ok ? 'Email verified' : 'This link does not work'}
      description={
        state.ok
          ? `${state.text}. Password reset links and paid-order emails go to this address.`
          : `${state.text} You can send a new link from your account page.`
      }
      tone={state.ok ? 'default' : 'error'}
    >
      <Link to="/admin/account" className="button">
        Go to your account
      </Link>
    </MessageCard>
  );
}
