// "Download invoice": GET /api/orders/{id}/invoice.pdf with the shopper's buyer token or the
// merchant's session, saved as the file the server names (invoice-INV-000001.pdf).
import { useState } from 'react';
import { apiErrorOf, errorText } from './api.ts';
import { reportNetworkFailure, reportNetworkSuccess } from './connectivity.ts';
import { toastError } from './toast.ts';

/** The invoice PDF of an order and its file name. */
export async function fetchInvoicePdf(
  orderId: string,
  headers: Record<string, string> = {},
): Promise<{ blob: Blob; fileName: string }> {
  let response: Response;
  try {
    response = await fetch(`/api/orders/${encodeURIComponent(orderId)}/invoice.pdf`, {
      headers: { accept: 'application/pdf', ...headers },
      credentials: 'include',
    });
  } catch (error) {
    reportNetworkFailure();
    throw error;
  }
  reportNetworkSuccess();
  if (!response.ok) throw await apiErrorOf(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'invoice.pdf';
  return { blob: await response.blob(), fileName };
}

/** A button that downloads an order's invoice. */
export function InvoiceDownloadButton(props: {
  orderId: string;
  headers?: Record<string, string>;
  className?: string;
}) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await fetchInvoicePdf(props.orderId, props.headers);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      toastError('Could not download the invoice', errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={props.className ?? 'button button-quiet'}
      onClick={() => void download()}
      disabled={busy}
    >
      {busy ? 'Preparing invoice...' : 'Download invoice'}
    </button>
  );
}
