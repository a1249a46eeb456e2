// The merchant's customer calls: a page of a store's customers (searched; the next page's cursor
// comes in the X-Next-Cursor header) and one customer's orders (the store's orders searched by the
// email, kept to that exact address). Answers are checked against their schemas.
import { type Customer, CustomerSchema } from '@store/shared/customers';
import { type CustomerErasure, CustomerErasureSchema } from '@store/shared/invoices';
import * as v from 'valibot';
import { apiErrorOf, apiRequest, newIdempotencyKey } from '../lib/api.ts';
import { reportNetworkFailure, reportNetworkSuccess } from '../lib/connectivity.ts';
import { fetchAllOrders } from './fulfilment-api.ts';
import type { MerchantOrder } from './types.ts';

/** Customers a page of the admin list holds. */
export const CUSTOMERS_PAGE_SIZE = 50;

/** One page of customers and the cursor of the next (null on the last page). */
export interface CustomerPage {
  customers: Customer[];
  nextCursor: string | null;
}

/** GET /api/stores/{id}/customers: one page of the store's customers matching `q`. */
export async function fetchCustomerPage(
  storeId: string,
  options: { q?: string; cursor?: string | null } = {},
): Promise<CustomerPage> {
  const query = new URLSearchParams({ limit: String(CUSTOMERS_PAGE_SIZE) });
  if (options.q) query.set('q', options.q);
  if (options.cursor) query.set('cursor', options.cursor);
  let response: Response;
  try {
    response = await fetch(`/api/stores/${encodeURIComponent(storeId)}/customers?${query}`, {
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
    customers: v.parse(v.array(CustomerSchema), await response.json()),
    nextCursor: response.headers.get('x-next-cursor'),
  };
}

/** The store's orders placed with this email address (any case), newest first. */
export async function fetchCustomerOrders(
  storeId: string,
  email: string,
): Promise<MerchantOrder[]> {
  return fetchAllOrders({ storeId, customerEmail: email });
}

/** POST /api/stores/{id}/customers/erase: erases the customer's personal data from the store's orders. */
export async function eraseCustomer(storeId: string, email: string): Promise<CustomerErasure> {
  const answer = await apiRequest(
    'POST',
    `/api/stores/${encodeURIComponent(storeId)}/customers/erase`,
    { email },
    { idempotencyKey: newIdempotencyKey() },
  );
  return v.parse(CustomerErasureSchema, answer);
}
