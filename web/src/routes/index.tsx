// Route "/": a minimal home page pointing at the main tools.
import { createFileRoute } from '@tanstack/react-router';
import { APP_DESCRIPTION, APP_NAME } from '../app-meta.ts';

export const Route = createFileRoute('/')({ component: HomePage });

// Note: plain anchors until these routes exist; switch to <Link> then, so the
// router type-checks the targets.
const LINKS = [
  { href: '/universal-checkout-docs', label: 'Integration docs' },
  { href: '/payment-link-builder', label: 'Build a payment link' },
  { href: '/admin', label: 'Merchant dashboard' },
] as const;

function HomePage() {
  return (
    <main className="page page-centred">
      <h1>{APP_NAME}</h1>
      <p className="muted">{APP_DESCRIPTION}</p>
      <nav className="actions" aria-label="Main">
        {LINKS.map((link) => (
          <a key={link.href} href={link.href} className="button">
            {link.label}
          </a>
        ))}
      </nav>
    </main>
  );
}
