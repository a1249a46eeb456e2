// Routes: GET /api/orders/{id}/invoice.pdf
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { BUYER_TOKEN_HEADER } from '../../http/buyer-token.ts';
import { contract } from '../../http/openapi.ts';
import { sessionPlugin } from '../../http/session.ts';
import { renderInvoicePdf } from '../../mail/invoice-pdf.ts';
import { checkInvoiceAccess, invoicePdfResponse } from './service.ts';

/** The invoice of a paid order, for its store's owner and its shopper. */
export const invoicesModule = ({ db, config }: AppDeps) => {
  return new Elysia({ name: 'invoices' })
    .use(sessionPlugin(db))
    .use(accessPlugin(db))
    .get(
      '/api/orders/:id/invoice.pdf',
      async ({ params, headers, currentUser }) => {
        const buyerToken = headers[BUYER_TOKEN_HEADER];
        await checkInvoiceAccess(db, params.id, {
          buyerToken,
          user: (await currentUser()) ?? undefined,
        });
        return invoicePdfResponse(db, params.id, config.chain.chainId, renderInvoicePdf);
      },
      {
        access: 'optional',
        ...contract({
          tags: ['orders'],
          summary:
            "A paid order's invoice as a PDF (the store's owner, or the shopper with X-Buyer-Token)",
          description:
            "The invoice is numbered in its store's sequence (INV-000001, INV-000002 … without gaps) when the order becomes paid. It carries the store's legal name, address and tax ID (store settings), the buyer's details (gone once the customer was erased), the lines, discount, shipping, tax and total in USDC, and the payment transaction. The shopper's page sends the order's buyer token (`X-Buyer-Token`); the store's owner signs in. 401 without either; 404 for another merchant's order or an order without an invoice (not paid, or an unsigned link's order).",
          ok: { 200: { mediaType: 'application/pdf', description: 'The invoice (an attachment)' } },
          errors: ['unauthorized', 'not_found'],
        }),
      },
    );
};
