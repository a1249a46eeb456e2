// The 'Checkout Error' card (docs/screens.md#universal-checkout): the parameter error and the URL
// format it needs.
import { PAGE_TEXTS } from '@store/shared';
import { Link } from '@tanstack/react-router';

const URL_FORMAT =
  '/universal-checkout?storeName=My%20Store' +
  '&items=[{"title":"Product","priceUsdc":"10.00","quantity":1}]' +
  '&paymentAddress=0x…(40 hex characters)';

/** Shown instead of the form when the link's parameters cannot be used. */
export function CheckoutError(props: { message: string }) {
  return (
    <main className="page page-centred">
      <section
        className="card message-card message-card-error"
        aria-labelledby="checkout-error-title"
      >
        <h1 id="checkout-error-title">{PAGE_TEXTS.checkoutError}</h1>
        <p role="alert">{props.message}</p>
        <p className="muted">A checkout link needs at least these parameters:</p>
        <pre className="code-block">
          <code>{URL_FORMAT}</code>
        </pre>
        <p className="muted small">
          See the <a href="/universal-checkout-docs">integration docs</a> for every parameter.
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
