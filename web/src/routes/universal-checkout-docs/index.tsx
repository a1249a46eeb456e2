// Route /universal-checkout-docs: integration docs (docs/screens.md#integration-docs): how it
// works, the URL parameters, the webhook with its Standard Webhooks headers and verification, a
// demo URL with copy and 'Try Live Demo', integration steps and support notes.
import {
  CONFIRMATION_REDIRECT_DELAY_MS,
  MARKETING_CLAIMS,
  PAYMENT_WINDOW_DAYS,
} from '@store/shared';
import { createFileRoute, Link } from '@tanstack/react-router';
import { CopyButton } from '../../components/copy-button.tsx';
import { DemoButton, useDemoCheckout } from '../../components/demo-link.tsx';
import { useChainInfo } from '../../lib/chain-info.ts';
import { ContentPage } from '../-landing/content-page.tsx';
import { PARAMETERS } from './-components/parameters.ts';
import { ServerCheckoutDocs } from './-components/server-checkout.tsx';
import { SignedLinksDocs } from './-components/signed-links-docs.tsx';
import { WebhookDocs } from './-components/webhook-docs.tsx';

export const Route = createFileRoute('/universal-checkout-docs/')({ component: DocsPage });

function DocsPage() {
  const demo = useDemoCheckout(window.location.origin);
  const { networkName } = useChainInfo();
  return (
    <ContentPage title="Universal Checkout Integration" className="prose docs">
      <p className="lead">
        Send your customers to a hosted checkout with a link. They pay USDC on {networkName}; you
        get {MARKETING_CLAIMS.merchantPercent}% in your wallet and a signed webhook.
      </p>

      <section className="docs-section" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol>
          <li>
            Your site links to <code>/universal-checkout</code> with the order in the query
            parameters.
          </li>
          <li>The customer enters contact and shipping details and continues to payment.</li>
          <li>
            We create a unique deposit address for the order. The customer has {PAYMENT_WINDOW_DAYS}{' '}
            days to send the exact USDC amount.
          </li>
          <li>
            Once the payment confirms, {MARKETING_CLAIMS.merchantPercent}% is forwarded to your{' '}
            <code>paymentAddress</code>, your <code>webhookUrl</code> receives the order, and the
            customer returns to your <code>returnUrl</code>.
          </li>
        </ol>
      </section>

      <section className="docs-section" aria-labelledby="params-title">
        <h2 id="params-title">URL parameters</h2>
        <div className="table-wrap">
          <table className="params-table">
            <thead>
              <tr>
                <th scope="col">Parameter</th>
                <th scope="col">Required</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {PARAMETERS.map((parameter) => (
                <tr key={parameter.name}>
                  <th scope="row">
                    <code>{parameter.name}</code>
                  </th>
                  <td>{parameter.required ? 'Yes' : 'No'}</td>
                  <td>{parameter.type}</td>
                  <td>{parameter.description.replace('{network}', networkName)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <ServerCheckoutDocs origin={window.location.origin} />
      <SignedLinksDocs origin={window.location.origin} />

      <WebhookDocs />

      <section className="docs-section" aria-labelledby="demo-title">
        <h2 id="demo-title">Try it</h2>
        <p>A demo link for one item of 0.25 USDC:</p>
        <p className="muted small" data-testid="demo-note">
          {demo.note}
        </p>
        {demo.url && (
          <pre className="code-block">
            <code data-testid="demo-url">{demo.url}</code>
          </pre>
        )}
        <div className="actions actions-start">
          {demo.url && (
            <CopyButton text={demo.url} label="Demo URL" className="button button-quiet">
              Copy URL
            </CopyButton>
          )}
          <DemoButton demo={demo} className="button" />
        </div>
      </section>

      <section className="docs-section" aria-labelledby="steps-title">
        <h2 id="steps-title">Integration steps</h2>
        <ol>
          <li>Get a wallet address on {networkName} for your payouts.</li>
          <li>
            Build a link with the <Link to="/payment-link-builder">payment link builder</Link> or in
            code: URL-encode every value, <code>items</code> as JSON.
          </li>
          <li>Put the link behind your checkout button.</li>
          <li>
            Handle the webhook: verify the signature, match <code>externalOrderId</code>, fulfil the
            order.
          </li>
          <li>
            Show your own confirmation at <code>returnUrl</code>; the shopper arrives about{' '}
            {CONFIRMATION_REDIRECT_DELAY_MS / 1000} seconds after the payment confirms.
          </li>
        </ol>
      </section>

      <section className="docs-section" aria-labelledby="support-title">
        <h2 id="support-title">Support notes</h2>
        <ul>
          <li>
            Only USDC on {networkName} is accepted; other tokens or networks sent to a deposit
            address are not credited.
          </li>
          <li>An underpayment can be completed by sending the rest to the same address.</li>
          <li>
            Refunds: more than the total is never forwarded; the excess stays on the deposit address
            and the payer gets a claim link (payment page, thank-you page, email) to confirm the
            address it goes back to (<code>order.refund_requested</code>, then{' '}
            <code>order.refunded</code>). An unclaimed excess stays claimable. A store order still
            underpaid when its window closes waits for the merchant: accept it as paid (what arrived
            is forwarded) or refund it from the deposit address; a universal link forwards what
            arrived. Refunds from a deposit address are whole: the platform pays the network fee and
            takes no 2% fee on them. A forwarded payment is refunded from the merchant's wallet; its
            2% fee is not returned.
          </li>
          <li>Customers can check the payment status at any time on the payment page.</li>
          <li>
            Links can be edited by the customer; the webhook always carries what was actually
            ordered and paid.
          </li>
        </ul>
      </section>
    </ContentPage>
  );
}
