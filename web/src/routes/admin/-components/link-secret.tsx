// The store's link secret: the key its server signs universal-checkout links with, so a shopper
// cannot change a link's price or payee. Masked until Show reads it (with the authenticator code
// once two-step verification is on); rotating it refuses every link signed before.
import { Link } from '@tanstack/react-router';
import { fetchLinkSecret, rotateLinkSecret } from '../../../admin/webhooks-api.ts';
import { newIdempotencyKey } from '../../../lib/api.ts';
import { RevealableSecret, type RotateTexts } from './revealable-secret.tsx';

const ROTATE_LINK_SECRET: RotateTexts = {
  title: 'Rotate link secret?',
  body: (
    <p>
      Links signed with the current secret stop working at once: a shopper who opens one is told the
      link was changed. Sign your links again with the new secret.
    </p>
  ),
  confirm: 'Rotate link secret',
  done: {
    title: 'Link secret rotated',
    description: 'Links signed with the old secret are refused from now on.',
  },
  failure: 'Failed to rotate link secret',
};

/** The link secret of one store, with what it is for. */
export function LinkSecretSettings(props: { storeId: string }) {
  return (
    <div className="link-secret">
      <p className="muted small">
        Your server signs payment links with this secret, so a shopper cannot change their price or
        payee. Keep it on your server only. An API key cannot read it; it can ask us to sign a link.{' '}
        <Link to="/universal-checkout-docs">How to sign links</Link>
      </p>
      <RevealableSecret
        label="Link secret"
        testId="link-secret"
        prefix="lsk_"
        hint={null}
        reveal={async (code) => (await fetchLinkSecret(props.storeId, code)).secret}
        rotate={async (code) =>
          (await rotateLinkSecret(props.storeId, newIdempotencyKey(), code)).secret
        }
        rotateTexts={ROTATE_LINK_SECRET}
      />
    </div>
  );
}
