// The store's agents: what each payer address spent over HTTP 402 (x402), read from the paid
// orders by the API (GET /api/stores/{id}/x402-payers), biggest spenders first.
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { apiRequest } from '../../../lib/api.ts';
import '../../../admin/table-cards.css';

const PayersSchema = v.object({
  payers: v.array(
    v.object({
      payer: v.string(),
      totalUsdc: v.string(),
      count: v.number(),
      lastPaidAt: v.nullable(v.string()),
    }),
  ),
});
type Payer = v.InferOutput<typeof PayersSchema>['payers'][number];

/** The Agents tab of a store (needs the network). */
export function X402PayersPanel(props: { storeId: string }) {
  const [payers, setPayers] = useState<Payer[] | null>();
  useEffect(() => {
    let live = true;
    apiRequest('GET', `/api/stores/${encodeURIComponent(props.storeId)}/x402-payers`).then(
      (answer) => live && setPayers(v.parse(PayersSchema, answer).payers),
      () => live && setPayers(null),
    );
    return () => {
      live = false;
    };
  }, [props.storeId]);
  if (payers === undefined)
    return (
      <p className="loading" role="status">
        Loading payers...
      </p>
    );
  if (payers === null)
    return <p className="card muted">Payers could not be loaded. Check your connection.</p>;
  return (
    <section className="card" aria-labelledby="x402-payers-title">
      <h2 id="x402-payers-title">Agents paying over HTTP 402</h2>
      <p className="muted small">
        What each payer address spent on your digital products’ payable URLs, from your paid orders.
      </p>
      {payers.length === 0 ? (
        <p>No payments over HTTP 402 yet.</p>
      ) : (
        // Note: cards on a phone (table-cards.css), so no region scrolls sideways.
        <div className="table-wrap table-cards">
          <table>
            <thead>
              <tr>
                <th scope="col">Payer address</th>
                <th scope="col">Total paid</th>
                <th scope="col">Payments</th>
                <th scope="col">Last payment</th>
              </tr>
            </thead>
            <tbody>
              {payers.map((row) => (
                <tr key={row.payer} data-testid="x402-payer">
                  <th scope="row">
                    <code className="address">{row.payer}</code>
                  </th>
                  <td data-label="Total paid">{row.totalUsdc} USDC</td>
                  <td data-label="Payments">{row.count}</td>
                  <td data-label="Last payment">
                    {row.lastPaidAt
                      ? new Date(row.lastPaidAt).toLocaleString(undefined, {
                          dateStyle: 'medium',
                          timeStyle: 'short',
                        })
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
