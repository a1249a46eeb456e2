// Route /terms-of-service (docs/screens.md#legal-pages: liability cap, arbitration opt-out, small
// claims, minimum age).
import { LEGAL, MARKETING_CLAIMS } from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { useChainInfo } from '../lib/chain-info.ts';
import { LegalPage } from './-landing/legal-page.tsx';
import { COMPANY_NAME } from './-landing/site-footer.tsx';

export const Route = createFileRoute('/terms-of-service')({ component: TermsPage });

function TermsPage() {
  const { networkName } = useChainInfo();
  return (
    <LegalPage title="Terms of Service">
      <h2>1. The service</h2>
      <p>
        {COMPANY_NAME}, a US corporation, provides store pages and a hosted checkout that accept
        USDC on the {networkName} network. The service is account-less and wallet-based: shoppers
        need no account, and payments go to a per-order address and on to the merchant's wallet.
      </p>
      <h2>2. Eligibility</h2>
      <p>You must be at least {LEGAL.minimumAge} years old to use the service.</p>
      <h2>3. Fees</h2>
      <p>
        A processing fee of {MARKETING_CLAIMS.feePercent}% of each payment is collected
        automatically; the merchant receives {MARKETING_CLAIMS.merchantPercent}%. The payer pays the
        network fee of their own transfer, as with any transfer from their wallet. The service pays
        the network fees of moving a payment on to the merchant's wallet and of returning money from
        an order's address to its payer; the merchant pays those of refunds it sends from its own
        wallet.
      </p>
      <h2>4. Payments are final</h2>
      <p>
        Blockchain transfers cannot be reversed. Send the exact amount of USDC on {networkName} to
        the address shown for your order. Money still on an order's address (more than the total, or
        an unpaid order the merchant refunds) is returned in full, the service paying the network
        fee, to the address the payer confirms through the refund link; an exchange deposit address
        may not credit it. An unclaimed refund stays claimable. Money already forwarded is refunded
        by the merchant from its own wallet, at the merchant's network cost; the processing fee on
        it is not returned. Other refunds are a matter between you and the merchant.
      </p>
      <h2>5. Limitation of liability</h2>
      <p>
        Our total liability for any claim is limited to the fees you paid us in the{' '}
        {LEGAL.liabilityCapMonths} months before the claim.
      </p>
      <h2>6. Disputes</h2>
      <p>
        Disputes are resolved by binding individual arbitration. You may opt out of arbitration by
        writing to us within {LEGAL.arbitrationOptOutDays} days of first using the service. Either
        party may bring a claim in small claims court for disputes under $
        {LEGAL.smallClaimsLimitUsd.toLocaleString('en-US')}.
      </p>
      <h2>7. Changes</h2>
      <p>We may update these terms; the date above shows the latest version.</p>
    </LegalPage>
  );
}
