// The docs' "Server-side checkout" section: an API key from the admin, a checkout session created
// with curl, the redirect to its hosted checkout, and the store's webhook (or a read of the
// session) to fulfil on. The commands run as shown against this origin.
import { CHECKOUT_SESSION_EXPIRY } from '@store/shared';
import { CopyButton } from '../../../components/copy-button.tsx';

/** The curl commands of the section, on `origin` (this page's own). */
export function serverCheckoutCommands(origin: string) {
  const create = `curl -sS -X POST ${origin}/api/checkout-sessions \\
  -H "Authorization: Bearer $STOREFRONT_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: order-1001" \\
  -d '{
    "storeId": "'"$STORE_ID"'",
    "items": [
      { "title": "Linen shirt", "priceUsdc": "20.00", "quantity": 2, "productId": "sku-shirt" },
      { "title": "Wool socks", "priceUsdc": "3.50", "quantity": 1 }
    ],
    "taxUsdc": "1.25",
    "shippingOptions": [
      { "id": "std", "label": "Standard (5-7 days)", "priceUsdc": "4.00" },
      { "id": "pickup", "label": "Pick up in store", "priceUsdc": "0" }
    ],
    "externalOrderId": "1001",
    "returnUrl": "https://shop.example/thanks",
    "cancelUrl": "https://shop.example/cart",
    "customer": { "email": "grace@example.com", "name": "Grace Hopper" }
  }'`;
  const answer = `{"id":"cs_4kQ…","url":"${origin}/pay/cs_4kQ…","expiresAt":"…"}`;
  const read = `curl -sS ${origin}/api/checkout-sessions/cs_4kQ… \\
  -H "Authorization: Bearer $STOREFRONT_KEY"`;
  return { create, answer, read };
}

/** The section. */
export function ServerCheckoutDocs(props: { origin: string }) {
  const commands = serverCheckoutCommands(props.origin);
  const hours = CHECKOUT_SESSION_EXPIRY.default / 3600;
  return (
    <section className="docs-section" aria-labelledby="server-checkout-title">
      <h2 id="server-checkout-title">Server-side checkout: key → session → webhook</h2>
      <p>
        For a checkout whose items and prices the shopper cannot change, create it from your server.
        Payments go to your store’s payout address and its webhook settings, like any order of your
        store.
      </p>
      <ol>
        <li>
          In <strong>Admin → your store → API keys</strong>, create a key. It is shown once: keep it
          on your server as <code>STOREFRONT_KEY</code> (<code>sk_test_…</code> on test chains,{' '}
          <code>sk_live_…</code> where payments are real). Copy the store id shown there as{' '}
          <code>STORE_ID</code>.
        </li>
        <li>
          When the shopper checks out on your site, create a session. The same{' '}
          <code>Idempotency-Key</code> returns the same session if you retry.
          <pre className="code-block">
            <code data-testid="session-curl">{commands.create}</code>
          </pre>
          <div className="actions actions-start">
            <CopyButton
              text={commands.create}
              label="Session command"
              className="button button-quiet"
            >
              Copy command
            </CopyButton>
          </div>
          <p>
            The answer (<code>201</code>) holds the hosted checkout’s URL; it expires after {hours}{' '}
            hours unless you send <code>expiresInSeconds</code> (5 minutes to 7 days):
          </p>
          <pre className="code-block">
            <code>{commands.answer}</code>
          </pre>
        </li>
        <li>
          Redirect the shopper to <code>url</code>. They fill in their details, pick a shipping
          option and pay; then they come back to{' '}
          <code>https://shop.example/thanks?orderId=…&amp;status=success</code>. The cancel link and
          an expired session lead to <code>cancelUrl</code>.
        </li>
        <li>
          Fulfil on the store’s webhook: <code>order.paid</code> carries your{' '}
          <code>externalOrderId</code> and is signed with the store’s secret (<code>v1</code>,
          below). Or read the session, with its order and payment state:
          <pre className="code-block">
            <code>{commands.read}</code>
          </pre>
          Its <code>status</code> is <code>open</code> until the shopper submits the form,{' '}
          <code>awaiting_payment</code> once they have (the order exists but is not paid: do not
          ship), <code>completed</code> once the order is paid (<code>completedAt</code>; it reads{' '}
          <code>awaiting_payment</code> again if that payment left the chain) and{' '}
          <code>expired</code> when the session or its order’s payment window ran out unpaid.
        </li>
      </ol>
      <p className="muted small">
        A key works on every merchant route (<code>GET /api/orders</code>,{' '}
        <code>GET /api/stores?mine=true</code>…) for your stores only; a revoked or unknown key gets{' '}
        <code>401</code>. Keys are created and revoked in the admin only.
      </p>
    </section>
  );
}
