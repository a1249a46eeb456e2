// Route /privacy-policy (docs/screens.md#legal-pages: usage data 24 months, blockchain logs 12
// months).
import { LEGAL } from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { LegalPage } from './-landing/legal-page.tsx';
import { COMPANY_NAME } from './-landing/site-footer.tsx';

export const Route = createFileRoute('/privacy-policy')({ component: PrivacyPage });

function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy">
      <h2>What we collect</h2>
      <p>
        {COMPANY_NAME} runs an account-less, wallet-based service. To fulfil an order we keep what
        you type at checkout (email, phone, name and shipping address), the order's items and
        totals, and the payment's on-chain details (addresses, amounts, transaction hashes).
      </p>
      <h2>On your device</h2>
      <p>
        Your cart, the catalogue of stores you visited and your last shipping address are stored in
        your browser so the app works offline. Clearing your browser's site data removes them.
      </p>
      <h2>How long we keep it</h2>
      <ul>
        <li>Usage data is retained for up to {LEGAL.usageDataRetentionMonths} months.</li>
        <li>Blockchain logs are purged after {LEGAL.blockchainLogRetentionMonths} months.</li>
        <li>
          Transactions on the blockchain itself are public and permanent; no one can delete them.
        </li>
      </ul>
      <h2>Sharing</h2>
      <p>
        The merchant of your order receives your order and shipping details, including through a
        signed webhook. We do not sell personal data.
      </p>
      <h2>Your rights</h2>
      <p>
        You may ask us for a copy of your data or for its deletion, except where the law requires us
        to keep it.
      </p>
    </LegalPage>
  );
}
