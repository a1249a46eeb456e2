// Routes: GET /api/stores/{id}/audit and GET /api/stores/{id}/audit/csv
import { AuditEntrySchema, AuditQuerySchema } from '@store/shared/audit';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { NEXT_CURSOR_HEADER } from '../orders/model.ts';
import { listStoreAudit, storeAuditCsv } from './service.ts';

const entry = registerResponseSchema('AuditEntry', AuditEntrySchema);
const what =
  'Every change to money or access: payout address, slug, deactivation, refunds, accepting an underpaid order, API keys, the webhook URL and secret, sign-ins from a new device; with who (user, and API key when one was used), when, from where (address, User-Agent) and the fields before and after (never a secret). The store’s entries and its owner’s account entries (keys, sign-ins). Append-only. Filters: `action`, `actor` (a user’s or API key’s id), `from` and `to` (UTC days, both included).';

/** A store's audit log, and its CSV. */
export const auditModule = ({ db }: AppDeps) =>
  new Elysia({ name: 'audit' })
    .use(accessPlugin(db))
    .get(
      '/api/stores/:id/audit',
      async ({ params, query, set, user }) => {
        const page = await listStoreAudit(db, user, params.id, query);
        if (page.nextCursor) set.headers[NEXT_CURSOR_HEADER] = page.nextCursor;
        return page.entries;
      },
      {
        query: AuditQuerySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary: "A store's audit log, newest first (owners and admins)",
          description: `${what} A full page (\`limit\`, default 100, at most 500) carries \`X-Next-Cursor\`: pass it as \`cursor\` for the next page.`,
          ok: { 200: v.array(entry) },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/stores/:id/audit/csv',
      async ({ params, query, user }) => storeAuditCsv(db, user, params.id, query),
      {
        query: AuditQuerySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary:
            "A store's audit log as a CSV file, newest first (the same filters; owners and admins)",
          description: what,
          ok: { 200: { mediaType: 'text/csv', description: 'The CSV file (an attachment)' } },
          errors: ['not_found'],
        }),
      },
    );
