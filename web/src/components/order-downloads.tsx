// The files of a paid order on its thank-you page: one download link each, signed for this order
// and valid for an hour (the page asks for fresh ones each time it opens). Shown in the browser
// holding the order's buyer token, or opened from the receipt's link (the token in its fragment).
import { isRevenueStatus } from '@store/shared';
import { useEffect, useState } from 'react';
import { reviewTokenFromHash, reviewTokenOf } from '../lib/review-tokens.ts';
import { fetchDownloads, type OrderDownload } from '../lib/shop-api.ts';

/** The download links of `orderId` once it is paid (`status`). */
export function OrderDownloads(props: { orderId: string; status: string }) {
  const [downloads, setDownloads] = useState<OrderDownload[]>([]);
  const paid = isRevenueStatus(props.status);
  // Note: the receipt's "open your order" link carries the buyer token (#token=…), for another
  // device; it is used for this page only, never stored.
  const [linkToken] = useState(() => reviewTokenFromHash(window.location.hash));
  useEffect(() => {
    if (!paid || !(linkToken ?? reviewTokenOf(props.orderId))) return;
    let live = true;
    fetchDownloads(props.orderId, linkToken).then(
      (found) => live && setDownloads(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [paid, props.orderId, linkToken]);
  if (downloads.length === 0) return null;
  return (
    <section className="card order-downloads" aria-label="Your downloads">
      <h2>Your downloads</h2>
      <ul>
        {downloads.map((file) => (
          <li key={file.productId}>
            <a href={file.url} download={file.fileName}>
              {file.title}: {file.fileName}
            </a>{' '}
            <span className="muted small">
              (link valid until {new Date(file.expiresAt).toLocaleTimeString()})
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
