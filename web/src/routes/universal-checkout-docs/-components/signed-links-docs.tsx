// The docs' "Signing links on your server" section: what a signed link carries, the canonical
// form the signature covers, and a few lines of Node or Bun that sign a link with the store's
// link secret (the same bytes the checkout verifies; see signed-links-docs.test.ts).
import {
  LINK_SIGNATURE_PARAM,
  LINK_SIGNATURE_VERSION,
  LINK_SIGNATURE_VERSION_PARAM,
  LINK_STORE_PARAM,
  SIGNED_LINK_MESSAGES,
} from '@store/shared';
import { CopyButton } from '../../../components/copy-button.tsx';

/** The server example: Node or Bun, no library but node:crypto. */
export const SIGNING_EXAMPLE = `import { createHmac } from 'node:crypto';
const enc = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
const params = new URLSearchParams({ storeName: 'My Store', items: JSON.stringify([{ title: 'Mug', priceUsdc: '12.50', quantity: 1 }]), paymentAddress: PAYOUT_ADDRESS, ${LINK_STORE_PARAM}: STORE_ID });
const canonical = [...params].map(([k, v]) => [enc(k), enc(v)]).sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0)).map(([k, v]) => k + '=' + v).join('&');
params.set('${LINK_SIGNATURE_PARAM}', createHmac('sha256', LINK_SECRET).update(canonical).digest('hex')); params.set('${LINK_SIGNATURE_VERSION_PARAM}', '${LINK_SIGNATURE_VERSION}');
const url = ORIGIN + '/universal-checkout?' + params;`;

/** The section. */
export function SignedLinksDocs(props: { origin: string }) {
  const signCall = `curl -sS -X POST ${props.origin}/api/stores/$STORE_ID/signed-links \\
  -H "Authorization: Bearer $STOREFRONT_KEY" -H "Content-Type: application/json" \\
  -d '{"link":"storeName=My%20Store&items=%5B%7B%22title%22%3A%22Mug%22%2C%22priceUsdc%22%3A%2212.50%22%2C%22quantity%22%3A1%7D%5D"}'`;
  return (
    <section className="docs-section" aria-labelledby="signed-links-title">
      <h2 id="signed-links-title">Signing links on your server</h2>
      <p>
        Anyone can edit a hand-made link, so its webhook says <code>signed: false</code>: check the
        amount before you ship. A <strong>signed</strong> link can't be edited. It carries{' '}
        <code>{LINK_STORE_PARAM}</code>, <code>{LINK_SIGNATURE_PARAM}</code> and{' '}
        <code>
          {LINK_SIGNATURE_VERSION_PARAM}={LINK_SIGNATURE_VERSION}
        </code>
        . If a shopper changes any parameter (price, quantity, address, webhook URL…), the checkout
        refuses it and tells them: “{SIGNED_LINK_MESSAGES.altered}”
      </p>
      <p>
        A signed link's order pays your store's payout address, and its webhook says{' '}
        <code>signed: true</code> and is signed with your store's webhook secret.
      </p>
      <ol>
        <li>
          Copy your store's link secret from the admin (your store, Webhooks tab, Signed payment
          links: Show) into your server's configuration. Only you can read it, signed in (with your
          authenticator code once two-step verification is on): an API key cannot. Rotating it there
          refuses every link signed before.
        </li>
        <li>
          Sign on your server. The signature is HMAC-SHA256 (hex) with the secret over the canonical
          parameters: all but <code>{LINK_SIGNATURE_PARAM}</code> and{' '}
          <code>{LINK_SIGNATURE_VERSION_PARAM}</code>, names and values UTF-8 percent-encoded
          (everything but <code>A-Z a-z 0-9 - _ . ~</code>), sorted by name then value, joined as{' '}
          <code>name=value&amp;…</code>.
          <pre className="code-block">
            <code>{SIGNING_EXAMPLE}</code>
          </pre>
          <CopyButton text={SIGNING_EXAMPLE} label="Example" className="button button-quiet">
            Copy example
          </CopyButton>
        </li>
        <li>
          Or let us sign it: the payment link builder does when you are signed in, and so does this
          call (the link's <code>paymentAddress</code> may be left out: your payout address is
          used).
          <pre className="code-block">
            <code>{signCall}</code>
          </pre>
        </li>
      </ol>
    </section>
  );
}
