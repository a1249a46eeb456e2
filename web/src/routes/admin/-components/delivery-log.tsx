// The store's webhook delivery log: one row per delivery (event, order, state, attempts, last
// response, next try) with its attempts one click away and a Redeliver action.
import { formatOrderNumber } from '@store/shared';
import { Fragment, useState } from 'react';
import {
  attemptSummary,
  deliveryState,
  deliveryTone,
  lastAttemptSummary,
  nextAttemptText,
} from '../../../admin/webhook-text.ts';
import type { WebhookDelivery } from '../../../admin/webhooks-api.ts';
import '../../../admin/table-cards.css';

const COLUMNS = 7;

/** The table of deliveries (or its empty text). */
export function DeliveryLog(props: {
  deliveries: readonly WebhookDelivery[];
  busy: string | undefined;
  onRedeliver: (delivery: WebhookDelivery) => void;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) => {
    const next = new Set(open);
    if (!next.delete(id)) next.add(id);
    setOpen(next);
  };
  if (props.deliveries.length === 0) {
    return <p className="muted">No deliveries yet. Order events will appear here once sent.</p>;
  }
  return (
    <div className="table-wrap table-cards">
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Order ID</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last response</th>
            <th scope="col">Next attempt</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries.map((delivery) => {
            const state = deliveryState(delivery);
            const order = formatOrderNumber(delivery.orderId);
            const expanded = open.has(delivery.id);
            const attemptsId = `attempts-${delivery.id}`;
            return (
              <Fragment key={delivery.id}>
                <tr aria-label={`${delivery.eventType} ${order}`}>
                  <th scope="row">
                    <code>{delivery.eventType}</code>
                  </th>
                  <td data-label="Order ID">{order}</td>
                  <td data-label="Status">
                    <span className={`badge delivery-status order-status-${deliveryTone(state)}`}>
                      {state}
                    </span>
                  </td>
                  <td data-label="Attempts">
                    <button
                      type="button"
                      className="button button-quiet button-small"
                      aria-expanded={expanded}
                      aria-controls={attemptsId}
                      onClick={() => toggle(delivery.id)}
                    >
                      {delivery.attemptCount} {delivery.attemptCount === 1 ? 'attempt' : 'attempts'}
                    </button>
                  </td>
                  <td className="small" data-label="Last response">
                    {lastAttemptSummary(delivery)}
                  </td>
                  <td className="small" data-label="Next attempt">
                    {nextAttemptText(delivery.nextAttemptAt)}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button-small"
                      disabled={props.busy === delivery.id}
                      onClick={() => props.onRedeliver(delivery)}
                      aria-label={`Redeliver ${delivery.eventType} ${order}`}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
                {expanded && (
                  <tr id={attemptsId} className="attempts-row">
                    <td colSpan={COLUMNS}>
                      <AttemptList delivery={delivery} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Every attempt of one delivery, oldest first, with the message id integrators dedupe on. */
function AttemptList(props: { delivery: WebhookDelivery }) {
  const { delivery } = props;
  return (
    <div className="small">
      <p className="muted">
        <code>webhook-id</code> <code>{delivery.messageId}</code> → {delivery.url}
      </p>
      {delivery.attempts.length === 0 ? (
        <p className="muted">Not sent yet.</p>
      ) : (
        <ol className="attempt-list" aria-label={`Attempts of ${delivery.eventType}`}>
          {delivery.attempts.map((attempt) => (
            <li key={attempt.attemptedAt}>
              <time dateTime={attempt.attemptedAt}>
                {new Date(attempt.attemptedAt).toLocaleString()}
              </time>{' '}
              — {attemptSummary(attempt)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
