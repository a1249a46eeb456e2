// The merchant's audit log calls: a page of a store's entries (filtered; the next page's cursor
// comes in the X-Next-Cursor header), and the address of its CSV. Answers are checked against
// their schemas.
import { type AuditAction, type AuditEntry, AuditEntrySchema } from '@store/shared/audit';
import * as v from 'valibot';
import { apiErrorOf } from '../lib/api.ts';
import { reportNetworkFailure, reportNetworkSuccess } from '../lib/connectivity.ts';

/** Entries a page of the admin list holds. */
export const AUDIT_PAGE_SIZE = 50;

/** The filters of the audit log page. */
export interface AuditFilters {
  action?: AuditAction;
  from?: string;
  to?: string;
}

/** One page of entries and the cursor of the next (null on the last page). */
export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

const queryOf = (filters: AuditFilters) => {
  const query = new URLSearchParams();
  if (filters.action) query.set('action', filters.action);
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  return query;
};

/** GET /api/stores/{id}/audit: one page of the store's entries matching `filters`. */
export async function fetchAuditPage(
  storeId: string,
  filters: AuditFilters,
  cursor?: string | null,
): Promise<AuditPage> {
  const query = queryOf(filters);
  query.set('limit', String(AUDIT_PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  let response: Response;
  try {
    response = await fetch(`/api/stores/${encodeURIComponent(storeId)}/audit?${query}`, {
      headers: { accept: 'application/json' },
      credentials: 'include',
    });
  } catch (error) {
    reportNetworkFailure();
    throw error;
  }
  reportNetworkSuccess();
  if (!response.ok) throw await apiErrorOf(response);
  return {
    entries: v.parse(v.array(AuditEntrySchema), await response.json()),
    nextCursor: response.headers.get('x-next-cursor'),
  };
}

/** The address of the store's audit CSV with `filters` (a download link). */
export function auditCsvUrl(storeId: string, filters: AuditFilters): string {
  const query = queryOf(filters).toString();
  return `/api/stores/${encodeURIComponent(storeId)}/audit/csv${query ? `?${query}` : ''}`;
}
