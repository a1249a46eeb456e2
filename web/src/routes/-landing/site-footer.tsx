// The footer of the landing and content pages: docs, builder, legal links and the copyright.
import { Link } from '@tanstack/react-router';
import { APP_NAME } from '../../app-meta.ts';

/** The company behind the product (docs/screens.md#legal-pages: a US corporation). */
export const COMPANY_NAME = 'USDC Storefront, Inc.';

/** Site footer with this year's copyright (from the clock). */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <nav aria-label="Footer">
        <Link to="/universal-checkout-docs">Docs</Link>
        <Link to="/payment-link-builder">Build Payment Link</Link>
        <Link to="/terms-of-service">Terms of Service</Link>
        <Link to="/privacy-policy">Privacy Policy</Link>
      </nav>
      <p className="muted small">
        © {new Date().getFullYear()} {COMPANY_NAME} All rights reserved. {APP_NAME} pays each order
        to its own deposit address, whose key the platform holds, and forwards it automatically and
        exactly once to the merchant's wallet.
      </p>
    </footer>
  );
}
