// The order page's shipment: the carrier, tracking number and link once shipped, and the "Mark as
// shipped" form (TanStack Form, the shared rules) for a paid order, which also corrects the
// tracking of a shipped one. The shopper is emailed and the store's webhook gets order.shipped.
import {
  FULFILMENT_MESSAGES,
  MarkShippedSchema,
  SHIPMENT_LIMITS,
  SHIPPABLE_STATUSES,
  type Shipment,
  trackingLinkOf,
} from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useState } from 'react';
import { useAdminForm } from '../../../admin/components/fields.tsx';
import { formValidator } from '../../../admin/form-values.ts';
import { markShipped, shipmentOf } from '../../../admin/fulfilment-api.ts';
import type { MerchantOrder } from '../../../admin/types.ts';
import { ApiError, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { submitWith } from '../../../lib/form.tsx';
import { toast, toastError } from '../../../lib/toast.ts';

interface ShipmentValues {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string;
}

/** The shipment card of the order page; `onShipped` gets the order as the API now has it. */
export function OrderShipment(props: {
  order: MerchantOrder;
  onShipped: (order: MerchantOrder) => void;
  /** False for a role that may not fulfil orders: the shipment without the form. */
  canShip?: boolean;
}) {
  const shipment = shipmentOf(props.order);
  const paid = (SHIPPABLE_STATUSES as readonly string[]).includes(props.order.status);
  const shippable = (props.canShip ?? true) && paid;
  const [editing, setEditing] = useState(false);
  return (
    <section className="card" id="ship" aria-labelledby="order-shipment-title">
      <h2 id="order-shipment-title">Shipment</h2>
      {shipment ? (
        <ShipmentFacts shipment={shipment} />
      ) : !shippable ? (
        <p className="muted">
          {props.order.status === 'reversed'
            ? FULFILMENT_MESSAGES.reversed
            : paid
              ? 'Not shipped yet.'
              : 'The order can be marked shipped once it is paid.'}
        </p>
      ) : null}
      {shippable && (!shipment || editing) ? (
        <ShipmentForm
          order={props.order}
          shipment={shipment}
          onDone={(order) => {
            setEditing(false);
            props.onShipped(order);
          }}
          onCancel={shipment ? () => setEditing(false) : undefined}
        />
      ) : shippable && shipment ? (
        <button type="button" className="button button-quiet" onClick={() => setEditing(true)}>
          Update tracking
        </button>
      ) : null}
    </section>
  );
}

function ShipmentFacts(props: { shipment: Shipment }) {
  const { shipment } = props;
  const link = trackingLinkOf(shipment);
  return (
    <dl className="order-facts" data-testid="order-shipment">
      <div>
        <dt>Shipped</dt>
        <dd>{new Date(shipment.shippedAt).toLocaleString()}</dd>
      </div>
      <div>
        <dt>Carrier</dt>
        <dd>{shipment.carrier}</dd>
      </div>
      <div>
        <dt>Tracking number</dt>
        <dd className="mono">{shipment.trackingNumber}</dd>
      </div>
      {link && (
        <div>
          <dt>Tracking link</dt>
          <dd>
            <a href={link} target="_blank" rel="noopener noreferrer">
              Track parcel
            </a>
          </dd>
        </div>
      )}
    </dl>
  );
}

function ShipmentForm(props: {
  order: MerchantOrder;
  shipment: Shipment | null;
  onDone: (order: MerchantOrder) => void;
  onCancel: (() => void) | undefined;
}) {
  // Note: one key per form, so a double submit or a retry after a lost answer ships once.
  const [key] = useState(newIdempotencyKey);
  const form = useAdminForm({
    defaultValues: {
      carrier: props.shipment?.carrier ?? '',
      trackingNumber: props.shipment?.trackingNumber ?? '',
      trackingUrl: props.shipment?.trackingUrl ?? '',
    } satisfies ShipmentValues,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<ShipmentValues>(MarkShippedSchema) },
    onSubmit: async ({ value }) => {
      try {
        const answer = await markShipped(
          props.order.id,
          {
            carrier: value.carrier.trim(),
            trackingNumber: value.trackingNumber.trim(),
            trackingUrl: value.trackingUrl.trim() || undefined,
          },
          `${key}-${value.carrier}-${value.trackingNumber}-${value.trackingUrl}`.slice(0, 200),
        );
        toast({
          title: answer.message,
          description:
            answer.outcome === 'unchanged' ? undefined : 'The customer is emailed the tracking.',
        });
        props.onDone(answer.order);
      } catch (error) {
        toastError(
          'Failed to mark the order shipped',
          error instanceof ApiError
            ? errorText(error)
            : 'Marking an order shipped needs a connection.',
        );
      }
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);
  return (
    <form className="shipment-form" noValidate onSubmit={submitWith(form)}>
      <div className="field-grid">
        <form.AppField name="carrier">
          {(field) => (
            <field.InputField label="Carrier" placeholder="UPS, DHL, USPS…" autoComplete="off" />
          )}
        </form.AppField>
        <form.AppField name="trackingNumber">
          {(field) => <field.InputField label="Tracking number" autoComplete="off" />}
        </form.AppField>
      </div>
      <form.AppField name="trackingUrl">
        {(field) => (
          <field.InputField
            label="Tracking URL (optional)"
            type="url"
            placeholder="https://…"
            hint={`An https:// link to the carrier's tracking page, at most ${SHIPMENT_LIMITS.trackingUrl} characters`}
          />
        )}
      </form.AppField>
      <div className="actions actions-start">
        <button type="submit" className="button" disabled={submitting}>
          {submitting ? 'Saving…' : props.shipment ? 'Update tracking' : 'Mark as shipped'}
        </button>
        {props.onCancel && (
          <button type="button" className="button button-quiet" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
