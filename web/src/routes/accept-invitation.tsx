// Route /accept-invitation?token=…: the mailed invitation to a store's team. Signed in with the
// account of the invited email, "Accept" joins the store with its role (once; the link works 7
// days); signed out, it offers to sign in or sign up and come back here.
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useState } from 'react';
import * as v from 'valibot';
import { acceptInvitation } from '../admin/team-api.ts';
import { MessageCard } from '../components/message-card.tsx';
import { ApiError } from '../lib/api.ts';

const SearchSchema = v.object({ token: v.optional(v.pipe(v.string(), v.maxLength(100)), '') });

export const Route = createFileRoute('/accept-invitation')({
  validateSearch: valibotValidator(SearchSchema),
  component: AcceptInvitationPage,
});

function AcceptInvitationPage() {
  const { token } = Route.useSearch();
  const navigate = useNavigate();
  const [state, setState] = useState<
    { step: 'ready' } | { step: 'sending' } | { step: 'refused'; text: string; signIn: boolean }
  >({ step: 'ready' });
  const here = `/accept-invitation?token=${encodeURIComponent(token)}`;

  if (!token)
    return (
      <MessageCard
        title="This link does not work"
        description="This link is incomplete: open the link from the email again."
        tone="error"
      />
    );

  const accept = async () => {
    setState({ step: 'sending' });
    try {
      await acceptInvitation(token);
      await navigate({ to: '/admin' });
    } catch (error) {
      setState({
        step: 'refused',
        text:
          error instanceof ApiError
            ? error.text
            : 'Could not reach the server. Check your connection and try again.',
        signIn: error instanceof ApiError && error.status === 401,
      });
    }
  };

  return (
    <MessageCard
      title="Join a store's team"
      description={
        state.step === 'refused'
          ? state.text
          : 'Accept with your account of the email address this invitation was sent to.'
      }
      tone={state.step === 'refused' && !state.signIn ? 'error' : 'default'}
    >
      <button
        type="button"
        className="button"
        disabled={state.step === 'sending'}
        onClick={() => void accept()}
      >
        {state.step === 'sending' ? 'Joining…' : 'Accept the invitation'}
      </button>
      <Link to="/sign-in" search={{ redirect: here }} className="button button-quiet">
        Sign in
      </Link>
      <Link to="/sign-up" search={{ redirect: here }} className="button button-quiet">
        Sign up
      </Link>
    </MessageCard>
  );
}
