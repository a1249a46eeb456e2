// Route "/": the landing page (docs/screens.md#landing-page): hero with the demo and link-builder
// buttons, a comparison with traditional processors, six feature cards, three steps, a call to
// action and the footer. The demo link is built by the shared buildDemoCheckoutUrl, paying the
// platform's treasury, with a note on what a demo payment is on this chain.
import { MARKETING_CLAIMS, PAYMENT_WINDOW_DAYS } from '@store/shared';
import { createFileRoute, Link } from '@tanstack/react-router';
import { APP_NAME } from '../app-meta.ts';
import { DemoButton, useDemoCheckout } from '../components/demo-link.tsx';
import { useChainInfo } from '../lib/chain-info.ts';
import { Comparison, Features, Steps } from './-landing/sections.tsx';
import { SiteFooter } from './-landing/site-footer.tsx';

export const Route = createFileRoute('/')({ component: LandingPage });

function LandingPage() {
  const chain = useChainInfo();
  // Note: one demo id per visit; the link only navigates.
  const demo = useDemoCheckout();
  return (
    <div className="landing">
      <header className="landing-nav">
        <span className="brand">{APP_NAME}</span>
        <nav aria-label="Main">
          <Link to="/universal-checkout-docs">Docs</Link>
          <Link to="/payment-link-builder">Build Payment Link</Link>
          {/* Note: the way into the admin, for merchants with a store or about to open one. */}
          <Link to="/sign-in">Sign in</Link>
          <Link to="/sign-up" className="button button-small">
            Start selling
          </Link>
        </nav>
      </header>
      <main>
        <section className="hero">
          <p className="eyebrow">USDC payments on {chain.networkName}</p>
          <h1>Accept crypto payments in {MARKETING_CLAIMS.setupSeconds} seconds</h1>
          <p className="hero-text">
            No coding, no accounts. Share a checkout link, get paid in USDC, and keep{' '}
            {MARKETING_CLAIMS.merchantPercent}% of every sale, sent straight to your wallet.
          </p>
          <div className="actions">
            <DemoButton demo={demo} className="button button-large" />
            <Link to="/payment-link-builder" className="button button-quiet button-large">
              Build Payment Link
            </Link>
          </div>
          <p className="muted small">
            {MARKETING_CLAIMS.feePercent}% processing fee · no monthly fees · {PAYMENT_WINDOW_DAYS}
            -day payment window
          </p>
          <p className="muted small" data-testid="demo-note">
            {demo.note}
          </p>
        </section>
        <Comparison />
        <Features />
        <Steps />
        <section className="cta card">
          <h2>Start accepting USDC today</h2>
          <p className="muted">Build your first payment link now. It takes less than a minute.</p>
          <div className="actions">
            <Link to="/payment-link-builder" className="button button-large">
              Build Payment Link
            </Link>
            <Link to="/universal-checkout-docs" className="button button-quiet button-large">
              Read the Docs
            </Link>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
