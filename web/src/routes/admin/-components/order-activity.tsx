// The order page's webhook deliveries (event, status, attempts, last answer) and its timeline of
// every event (placed, payment, forwarding, webhooks, mail, shipped), oldest first.
import type { OrderActivity } from '@store/shared';
import { explorerTxUrl, useChainInfo } from '../../../lib/chain-info.ts';

const when = (iso: string) => new Date(iso).toLocaleString();

/** The webhook deliveries of the order. */
export function OrderWebhooks(props: { activity: OrderActivity | undefined }) {
  const webhooks = props.activity?.webhooks;
  return (
    <section className="card" aria-labelledby="order-webhooks-title">
      <h2 id="order-webhooks-title">Webhooks</h2>
      {webhooks === undefined ? (
        <p className="muted">Webhooks are shown when connected.</p>
      ) : webhooks.length === 0 ? (
        <p className="muted">No webhook was sent for this order (is a webhook URL set?).</p>
      ) : (
        <ul className="order-webhooks">
          {webhooks.map((hook) => (
            <li key={hook.id} aria-label={`Webhook ${hook.eventType}`}>
              <strong>{hook.eventType}</strong>
              <span className={`status-text status-${hook.status}`}>{hook.status}</span>
              <span className="small">
                {hook.attempts === 1 ? '1 attempt' : `${hook.attempts} attempts`}
                {hook.lastStatusCode !== null && `, last answer HTTP ${hook.lastStatusCode}`}
              </span>
              {hook.lastError && <span className="small muted">{hook.lastError}</span>}
              <time dateTime={hook.deliveredAt ?? hook.createdAt}>
                {when(hook.deliveredAt ?? hook.createdAt)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Every event of the order, oldest first. */
export function OrderTimeline(props: { activity: OrderActivity | undefined }) {
  const { chainId } = useChainInfo();
  const timeline = props.activity?.timeline;
  return (
    <section className="card" aria-labelledby="order-timeline-title">
      <h2 id="order-timeline-title">Timeline</h2>
      {timeline === undefined ? (
        <p className="muted">The timeline is shown when connected.</p>
      ) : (
        <ol className="order-timeline">
          {timeline.map((step, index) => {
            const url = step.txHash ? explorerTxUrl(chainId, step.txHash) : undefined;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the timeline is read whole; steps never move.
              <li key={index} data-kind={step.kind}>
                <div>
                  <strong>{step.title}</strong>
                  {step.detail && <div className="small muted">{step.detail}</div>}
                  {step.txHash && (
                    <div className="small mono">
                      {url ? (
                        <a href={url} target="_blank" rel="noreferrer">
                          {step.txHash}
                        </a>
                      ) : (
                        step.txHash
                      )}
                    </div>
                  )}
                  <time dateTime={step.at}>{when(step.at)}</time>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
