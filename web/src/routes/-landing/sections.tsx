// Landing page sections: the comparison, the six feature cards and the three steps
// (docs/screens.md#landing-page).
import { MARKETING_CLAIMS, PAYMENT_WINDOW_DAYS } from '@store/shared';
import { Link } from '@tanstack/react-router';
import {
  FeeIcon,
  GlobeIcon,
  PaletteIcon,
  TimerIcon,
  WebhookIcon,
  ZapIcon,
} from '../../components/icons.tsx';
import { useChainInfo } from '../../lib/chain-info.ts';

const COMPARISON = [
  [
    'Processing fee',
    `${MARKETING_CLAIMS.traditionalFeePercent} + fixed fees`,
    `${MARKETING_CLAIMS.feePercent}% flat`,
  ],
  ['Monthly fees', 'Yes', 'None'],
  ['Accounts and paperwork', 'Merchant account, KYC, contracts', 'Just a wallet address'],
  ['Settlement', '2-7 business days', 'Minutes'],
  ['Chargebacks', 'Yes', 'No: on-chain payments are final'],
  ['Reach', 'Limited by country and bank', 'Global'],
] as const;

const FEATURES = [
  {
    Icon: ZapIcon,
    title: 'Setup in 60 seconds',
    text: 'No coding and no accounts: paste your wallet address and share a link.',
  },
  {
    Icon: FeeIcon,
    title: `${MARKETING_CLAIMS.feePercent}% flat fee`,
    text: `${MARKETING_CLAIMS.merchantPercent}% goes to your wallet, collected automatically. No monthly fees.`,
  },
  {
    Icon: TimerIcon,
    title: 'Settlement in minutes',
    text: `Funds are forwarded to your wallet once the payment confirms. Shoppers get a ${PAYMENT_WINDOW_DAYS}-day payment window.`,
  },
  {
    Icon: WebhookIcon,
    title: 'Webhooks',
    text: 'Your server hears about every confirmed payment, signed so you can verify it.',
  },
  {
    Icon: PaletteIcon,
    title: 'White-label branding',
    text: 'Your name, logo and colours on the checkout and payment pages.',
  },
  {
    Icon: GlobeIcon,
    title: 'Global reach',
    text: (network: string) =>
      // Note: no network fee figure: nothing measures a transfer's cost on the deployment's chain
      // (the payer's wallet shows the real one before sending), as on the payment page.
      `Anyone with USDC on ${network} can pay from their own wallet, which shows the network fee before they send.`,
  },
] as const;

/** Traditional processors versus this product. */
export function Comparison() {
  const { networkName } = useChainInfo();
  return (
    <section className="landing-section" aria-labelledby="comparison-title">
      <h2 id="comparison-title">Traditional payments vs. USDC on {networkName}</h2>
      {/* Note: it scrolls sideways on a phone, so a keyboard can reach and scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable. */}
      <section className="table-wrap" tabIndex={0} aria-labelledby="comparison-title">
        <table className="comparison">
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">Traditional processors</th>
              <th scope="col">This gateway</th>
            </tr>
          </thead>
          <tbody>
            {COMPARISON.map(([label, traditional, ours]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{traditional}</td>
                <td className="comparison-ours">{ours}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}

/** The six feature cards. */
export function Features() {
  const { networkName } = useChainInfo();
  return (
    <section className="landing-section" aria-labelledby="features-title">
      <h2 id="features-title">Everything you need to get paid</h2>
      <ul className="feature-grid">
        {FEATURES.map(({ Icon, title, text }) => (
          <li key={title} className="card feature-card">
            <span className="feature-icon">
              <Icon size={24} aria-hidden="true" />
            </span>
            <h3>{title}</h3>
            <p className="muted">{typeof text === 'function' ? text(networkName) : text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How it works, in three steps. */
export function Steps() {
  const { networkName } = useChainInfo();
  return (
    <section className="landing-section" aria-labelledby="steps-title">
      <h2 id="steps-title">How it works</h2>
      <ol className="steps">
        <li className="card">
          <h3>Get a wallet address</h3>
          <p className="muted">
            Any wallet on {networkName} works. We recommend{' '}
            <a href="https://www.coinbase.com/wallet" target="_blank" rel="noopener noreferrer">
              Coinbase Wallet
            </a>
            .
          </p>
        </li>
        <li className="card">
          <h3>Build a checkout URL</h3>
          <p className="muted">
            Add your products, prices and branding in the{' '}
            <Link to="/payment-link-builder">link builder</Link>.
          </p>
        </li>
        <li className="card">
          <h3>Share or embed it</h3>
          <p className="muted">
            Send the link, put it behind a button on your site, or print it as a QR code.
          </p>
        </li>
      </ol>
    </section>
  );
}
