// The Webhooks tab of a store's admin page: its settings, its payment links' signing secret and
// its delivery log, read from the API (webhooks need the network, so nothing is cached). The log
// re-reads itself while a delivery is on its way, so a redelivery's outcome shows without a reload.
import { useCallback, useEffect, useId, useState } from 'react';
import {
  fetchWebhookDeliveries,
  fetchWebhookSettings,
  redeliverWebhook,
  type WebhookSettings as Settings,
  type WebhookDelivery,
} from '../../../admin/webhooks-api.ts';
import { ApiError, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { LinkSecretSettings } from './link-secret.tsx';
import { WebhookSettings } from './webhook-settings.tsx';

const REFRESH_MS = 3000;

/** Settings and delivery log of one store. */
export function WebhooksPanel(props: { storeId: string }) {
  const { storeId } = props;
  const id = useId();
  const [settings, setSettings] = useState<Settings>();
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>();
  const [failed, setFailed] = useState<string>();
  const [busy, setBusy] = useState<string>();

  const loadDeliveries = useCallback(
    () => fetchWebhookDeliveries(storeId).then(setDeliveries),
    [storeId],
  );

  useEffect(() => {
    Promise.all([fetchWebhookSettings(storeId).then(setSettings), loadDeliveries()]).then(
      () => setFailed(undefined),
      (error: unknown) =>
        setFailed(
          error instanceof ApiError ? errorText(error) : 'Connect to see this store’s webhooks.',
        ),
    );
  }, [storeId, loadDeliveries]);

  const sending = deliveries?.some((delivery) => delivery.status === 'pending') ?? false;
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => void loadDeliveries().catch(() => undefined), REFRESH_MS);
    return () => clearInterval(timer);
  }, [sending, loadDeliveries]);

  const redeliver = async (delivery: WebhookDelivery) => {
    setBusy(delivery.id);
    try {
      await redeliverWebhook(delivery.id, newIdempotencyKey());
      toast({
        title: 'Redelivery queued',
        description: `${delivery.eventType} will be sent again.`,
      });
    } catch (error) {
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to redeliver webhook',
        offline ? 'Redelivering needs a connection.' : errorText(error),
      );
    } finally {
      setBusy(undefined);
      await loadDeliveries().catch(() => undefined);
    }
  };

  if (failed) return <p className="muted">{failed}</p>;
  if (!settings || !deliveries) {
    return (
      <p className="loading" role="status">
        Loading webhooks...
      </p>
    );
  }
  return (
    <div className="webhooks">
      <section className="card" aria-labelledby={`${id}-settings`}>
        <h2 id={`${id}-settings`}>Webhook</h2>
        <WebhookSettings storeId={storeId} settings={settings} onChange={setSettings} />
      </section>
      <section className="card" aria-labelledby={`${id}-links`}>
        <h2 id={`${id}-links`}>Signed payment links</h2>
        <LinkSecretSettings storeId={storeId} />
      </section>
      <section className="card" aria-labelledby={`${id}-log`}>
        <div className="admin-heading">
          <h2 id={`${id}-log`}>Deliveries</h2>
          <button
            type="button"
            className="button button-quiet button-small"
            onClick={() =>
              void loadDeliveries().catch((error: unknown) =>
                toastError('Failed to refresh deliveries', errorText(error)),
              )
            }
          >
            Refresh
          </button>
        </div>
        <DeliveryLog deliveries={deliveries} busy={busy} onRedeliver={(d) => void redeliver(d)} />
      </section>
    </div>
  );
}
