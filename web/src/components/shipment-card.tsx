// The shopper's shipment on the order page: once the merchant marked the order shipped, its
// carrier, tracking number and a link to the carrier's tracking page (https only). Nothing shows
// before that, or when the order cannot be read.
import { type Shipment, ShipmentSchema, trackingLinkOf } from '@store/shared';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { apiGet } from '../lib/api.ts';
import { buyerHeaders } from '../lib/review-tokens.ts';

const OrderShipmentSchema = v.object({ shipment: v.optional(v.nullable(ShipmentSchema)) });

/** GET /api/orders/{id}'s shipment, read once per order. */
function useShipment(orderId: string): Shipment | null {
  const [shipment, setShipment] = useState<Shipment | null>(null);
  useEffect(() => {
    let live = true;
    setShipment(null);
    apiGet<unknown>(['/api/orders', orderId], buyerHeaders(orderId)).then(
      (answer) => {
        const parsed = v.safeParse(OrderShipmentSchema, answer);
        if (live && parsed.success) setShipment(parsed.output.shipment ?? null);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [orderId]);
  return shipment;
}

/** The "Shipped" card of the order page (rendered only once the order has shipped). */
export function ShipmentCard(props: { orderId: string }) {
  const shipment = useShipment(props.orderId);
  if (!shipment) return null;
  const link = trackingLinkOf(shipment);
  return (
    <div className="page shipment-page" style={{ paddingTop: 0, paddingBottom: '1rem' }}>
      <section className="card" aria-labelledby="shipment-title" data-testid="shipment-card">
        <h2 id="shipment-title">Your order has shipped</h2>
        <dl className="details-list">
          <div>
            <dt>Shipped</dt>
            <dd>{new Date(shipment.shippedAt).toLocaleDateString()}</dd>
          </div>
          <div>
            <dt>Carrier</dt>
            <dd>{shipment.carrier}</dd>
          </div>
          <div>
            <dt>Tracking number</dt>
            <dd style={{ overflowWrap: 'anywhere' }}>{shipment.trackingNumber}</dd>
          </div>
        </dl>
        {link && (
          <p>
            <a className="button" href={link} target="_blank" rel="noopener noreferrer">
              Track your parcel
            </a>
          </p>
        )}
      </section>
    </div>
  );
}
