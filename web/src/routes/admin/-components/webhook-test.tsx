// "Send test webhook": picks an event, sends its signed sample to the store's URL once (before the
// first order too) and shows what the receiver answered: status, time and the start of its body.
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_MESSAGES,
  type WebhookEventType,
} from '@store/shared';
import { useId, useState } from 'react';
import { sendTestWebhook, type WebhookTest } from '../../../admin/webhooks-api.ts';
import { errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { toastError } from '../../../lib/toast.ts';

/** The test sender of one store; `url` is the saved webhook URL (null: none yet). */
export function WebhookTestSender(props: { storeId: string; url: string | null }) {
  const id = useId();
  const [eventType, setEventType] = useState<WebhookEventType>('order.paid');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<WebhookTest>();

  const send = async () => {
    setSending(true);
    try {
      setResult(await sendTestWebhook(props.storeId, eventType, newIdempotencyKey()));
    } catch (failure) {
      toastError('Failed to send test webhook', errorText(failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="webhook-test" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Send test webhook</h3>
      <p className="field-hint">
        Sends a signed sample of the event to your URL once, so you can check your server before the
        first order. It carries a <code>webhook-id</code> starting <code>msg_test_</code> and is not
        retried or logged below.
      </p>
      <div className="webhook-test-row">
        <div className="field">
          <label htmlFor={`${id}-event`}>Event</label>
          <select
            id={`${id}-event`}
            value={eventType}
            onChange={(event) => setEventType(event.target.value as WebhookEventType)}
            aria-describedby={`${id}-event-hint`}
          >
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
          <p id={`${id}-event-hint`} className="field-hint">
            {WEBHOOK_EVENT_DESCRIPTIONS[eventType]}
          </p>
        </div>
        <button
          type="button"
          className="button button-quiet"
          disabled={sending || !props.url}
          onClick={() => void send()}
        >
          {sending ? 'Sending...' : 'Send test webhook'}
        </button>
      </div>
      {!props.url && <p className="muted small">{WEBHOOK_TEST_MESSAGES.noUrl}.</p>}
      {result && (
        <div
          className={`notice card small ${result.delivered ? 'notice-success' : 'notice-error'}`}
          role="status"
          data-testid="webhook-test-result"
        >
          <p>
            <strong>
              {result.delivered ? 'Delivered' : 'Not delivered'}: {result.eventType}
            </strong>{' '}
            {result.statusCode !== null ? `HTTP ${result.statusCode}` : result.error} in{' '}
            {result.latencyMs} ms
          </p>
          {!result.delivered && result.error && result.statusCode !== null && <p>{result.error}</p>}
          {result.responseBody && <pre className="webhook-test-body">{result.responseBody}</pre>}
          <p className="muted">
            <code>{result.messageId}</code>
          </p>
        </div>
      )}
    </section>
  );
}
