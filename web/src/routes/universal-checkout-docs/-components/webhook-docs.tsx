// The webhook section of the docs: every event with its example payload (the shared schemas'
// examples, as the OpenAPI document's `webhooks` shows them), the headers, and how to verify the
// signature (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`).
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EXAMPLES,
  WEBHOOK_PAYLOAD_VERSION,
  WEBHOOK_TIMEOUT_MS,
} from '@store/shared';

const HEADERS = `POST /your/webhook HTTP/1.1
Content-Type: application/json
User-Agent: USDC-Storefront-Webhooks/1.0
webhook-id: msg_2f8c1d9e7a
webhook-timestamp: 1735689900
webhook-signature: v1a,hnO3f9T8…`;

const verifyCode = (origin: string) => `import { createPublicKey, verify } from 'node:crypto';

// Once: fetch our public key (GET /.well-known/webhook-signing-key → { publicKey: 'whpk_…' }).
const { publicKey } = await (await fetch('${origin}/.well-known/webhook-signing-key')).json();
const key = createPublicKey({
  key: Buffer.concat([
    Buffer.from('302a300506032b6570032100', 'hex'), // Ed25519 SPKI prefix
    Buffer.from(publicKey.replace(/^whpk_/, ''), 'base64'),
  ]),
  format: 'der',
  type: 'spki',
});

/** True when the request is ours, unaltered and fresh. Use the RAW body bytes. */
export function verifyWebhook(headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false; // replayed or stale
  const signed = Buffer.from(\`\${id}.\${timestamp}.\${rawBody}\`);
  return headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    return version === 'v1a' && verify(null, signed, key, Buffer.from(signature, 'base64'));
  });
}`;

const checkCode = `// Your own record of the order, looked up by the externalOrderId you put in the link.
const MY_PAYOUT_ADDRESS = '0x1111111111111111111111111111111111111111';

/** A USDC decimal string ("37.99", "37.990000", "38") in base units (6 decimals). */
function toUnits(usdc) {
  const [whole, fraction = ''] = usdc.split('.');
  return BigInt(whole + fraction.padEnd(6, '0'));
}

/** True when this verified webhook pays for this order of yours. */
export async function paysForMyOrder(webhookId, payload, myOrder) {
  if (payload.type !== 'order.paid') return false;
  if (await alreadyHandled(webhookId)) return false; // deliveries are at least once
  if (payload.externalOrderId !== myOrder.id) return false;
  // A link can be made or edited by anyone: the money must have gone to YOUR address...
  const payee = payload.paymentWallet.storePaymentAddress.toLowerCase();
  if (payee !== MY_PAYOUT_ADDRESS.toLowerCase()) return false;
  // ...and what arrived must cover YOUR price, not the price written in the link.
  return toUnits(payload.paymentWallet.receivedAmount) >= toUnits(myOrder.totalUsdc);
}`;

/** Webhook docs: delivery rules, headers, payload, verification, the checks before fulfilling. */
export function WebhookDocs() {
  return (
    <section className="docs-section" aria-labelledby="webhook-title">
      <h2 id="webhook-title">Webhooks</h2>
      <p>
        When an order is paid we send a <code>POST</code> with a JSON body to your{' '}
        <code>webhookUrl</code>. Answer with any 2xx status within {WEBHOOK_TIMEOUT_MS / 1000}{' '}
        seconds; other answers and timeouts are retried with backoff for 3 days. Delivery is{' '}
        <strong>at least once</strong>: after a retry or a restart the same message may arrive
        twice, with the same <code>webhook-id</code>. Record the ids you have handled and ignore a
        repeat.
      </p>
      <h3>Events</h3>
      <p>
        The payload's <code>type</code> says what happened; fulfil on <code>order.paid</code>. Every
        event carries the same fields (payload <code>version</code> {WEBHOOK_PAYLOAD_VERSION}), and{' '}
        <code>order.forwarded</code> adds its <code>forwarding</code> round. Open an event to see
        its payload; the <a href="/api/openapi">API reference</a> lists the same under{' '}
        <em>Webhooks</em>.
      </p>
      <div className="docs-events">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <details key={type} className="docs-event">
            <summary>
              <code>{type}</code>
              <span>{WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
            </summary>
            <pre className="code-block">
              <code>{JSON.stringify(WEBHOOK_EXAMPLES[type], null, 2)}</code>
            </pre>
          </details>
        ))}
      </div>
      <h3>Headers</h3>
      <p>
        Webhooks follow the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>{' '}
        format: <code>webhook-id</code> (unique per message), <code>webhook-timestamp</code> (Unix
        seconds) and <code>webhook-signature</code> (space-separated <code>version,signature</code>{' '}
        pairs).
      </p>
      <pre className="code-block">
        <code>{HEADERS}</code>
      </pre>
      <h3>Verify the signature</h3>
      <p>
        The signed content is <code>{'{webhook-id}.{webhook-timestamp}.{raw body}'}</code>.
        Checkout-link orders are signed with our Ed25519 key (<code>v1a</code>); its public key is
        published at <code>/.well-known/webhook-signing-key</code>. Orders of stores built here are
        signed with the store's own secret (<code>v1</code>, HMAC-SHA256), which any Standard
        Webhooks library verifies, e.g. <code>new Webhook(secret).verify(rawBody, headers)</code>{' '}
        from the <code>standardwebhooks</code> npm package. Always verify against the raw bytes,
        before parsing the JSON.
      </p>
      <pre className="code-block">
        <code>{verifyCode(window.location.origin)}</code>
      </pre>
      <h3 id="before-you-fulfil">Before you fulfil: check the payee and the amount</h3>
      <p>
        A valid signature proves that we sent the webhook, not that the order's terms were yours.
        Anyone can make a checkout link, or edit yours (the price, the payment address) before
        paying. Each payload says what it is about: <code>signed</code> is <code>false</code> for a
        link made by hand, which proves only that <code>paymentWallet.receivedAmount</code> USDC
        reached <code>paymentWallet.storePaymentAddress</code>. So before you ship:
      </p>
      <ol>
        <li>Verify the signature against the raw body (above).</li>
        <li>
          Ignore a <code>webhook-id</code> you have already handled.
        </li>
        <li>
          Find your own order by <code>externalOrderId</code>.
        </li>
        <li>
          Check that <code>paymentWallet.storePaymentAddress</code> is your own payout address.
        </li>
        <li>
          Check that <code>paymentWallet.receivedAmount</code> covers the total in <em>your</em>{' '}
          record, not the one in the payload.
        </li>
      </ol>
      <pre className="code-block">
        <code>{checkCode}</code>
      </pre>
    </section>
  );
}
