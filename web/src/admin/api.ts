// The merchant's calls (sign-in, own stores, products, analytics, orders), each answer checked
// against its schema so a contract drift shows as one clear error. Mutations go through
// lib/api.ts, which sends the Idempotency-Key.
import {
  type CreateProductInput,
  type CreateStoreInput,
  type OrderStatus,
  type StoreAnalytics,
  StoreAnalyticsSchema,
} from '@store/shared';
import * as v from 'valibot';
import { apiRequest } from '../lib/api.ts';
import {
  type Merchant,
  type MerchantOrder,
  MerchantOrderSchema,
  type MerchantProduct,
  MerchantProductSchema,
  MerchantSchema,
  type MerchantStore,
  MerchantStoreSchema,
} from './types.ts';

const AccountResponse = v.object({ user: MerchantSchema });
const path = (...segments: string[]) => segments.map(encodeURIComponent).join('/');

/** GET /api/auth/me: the signed-in merchant, or null when signed out (401). */
export async function fetchMe(): Promise<Merchant | null> {
  const answer = await apiRequest<unknown>('GET', '/api/auth/me', undefined, {
    on401: 'returnNull',
  });
  return answer === null ? null : v.parse(AccountResponse, answer).user;
}

/** POST /api/auth/sign-in or sign-up: starts a session (cookie) and answers the merchant. */
export async function authenticate(
  mode: 'sign-in' | 'sign-up',
  credentials: { username: string; password: string },
): Promise<Merchant> {
  return v.parse(AccountResponse, await apiRequest('POST', `/api/auth/${mode}`, credentials)).user;
}

/** POST /api/auth/sign-out: ends the session and clears its cookie. */
export async function signOutRequest(): Promise<void> {
  await apiRequest('POST', '/api/auth/sign-out');
}

/** GET /api/stores?mine=true: the merchant's stores, inactive ones too. */
export async function fetchMyStores(): Promise<MerchantStore[]> {
  return v.parse(v.array(MerchantStoreSchema), await apiRequest('GET', '/api/stores?mine=true'));
}

/** GET /api/stores/{id}/products: all of the store's products (the owner sees unpublished ones). */
export async function fetchStoreProducts(storeId: string): Promise<MerchantProduct[]> {
  const answer = await apiRequest('GET', `/api/stores/${path(storeId)}/products`);
  return v.parse(v.array(MerchantProductSchema), answer);
}

/** GET /api/stores/{id}/analytics: the store's 30-day figures. */
export async function fetchAnalytics(storeId: string): Promise<StoreAnalytics> {
  const answer = await apiRequest('GET', `/api/stores/${path(storeId)}/analytics`);
  return v.parse(StoreAnalyticsSchema, answer);
}

/** Filters of GET /api/orders. */
export interface OrderFilters {
  storeId?: string | undefined;
  status?: OrderStatus | undefined;
  limit?: number;
}

/** GET /api/orders: the merchant's orders, newest first. */
export async function fetchOrders(filters: OrderFilters = {}): Promise<MerchantOrder[]> {
  const query = new URLSearchParams();
  if (filters.storeId) query.set('storeId', filters.storeId);
  if (filters.status) query.set('status', filters.status);
  if (filters.limit) query.set('limit', String(filters.limit));
  const suffix = query.size > 0 ? `?${query}` : '';
  return v.parse(v.array(MerchantOrderSchema), await apiRequest('GET', `/api/orders${suffix}`));
}

/** PATCH /api/orders/{id}: the next fulfilment step, on the version the merchant saw. */
export async function updateOrderStatus(
  order: Pick<MerchantOrder, 'id' | 'updatedAt'>,
  status: OrderStatus,
  idempotencyKey: string,
): Promise<MerchantOrder> {
  const body = { status, updatedAt: order.updatedAt };
  const answer = await apiRequest('PATCH', `/api/orders/${path(order.id)}`, body, {
    idempotencyKey,
  });
  return v.parse(MerchantOrderSchema, answer);
}

/** DELETE /api/products/{id}. */
export async function deleteProductRequest(id: string, idempotencyKey: string): Promise<void> {
  await apiRequest('DELETE', `/api/products/${path(id)}`, undefined, { idempotencyKey });
}

/** The request one outbox entry stands for. */
export interface EntityRequest {
  method: 'POST' | 'PUT';
  url: string;
  body: Partial<CreateStoreInput> | Partial<CreateProductInput> | Record<string, unknown>;
}

/** Sends a store or product create/update and answers the saved record. */
export async function sendEntityRequest(
  kind: 'store' | 'product',
  request: EntityRequest,
  idempotencyKey: string,
): Promise<MerchantStore | MerchantProduct> {
  const answer = await apiRequest(request.method, request.url, request.body, { idempotencyKey });
  return kind === 'store'
    ? v.parse(MerchantStoreSchema, answer)
    : v.parse(MerchantProductSchema, answer);
}

/** GET /api/orders/{id}/detail: one of the merchant's orders (404 for anyone else's). */
export async function fetchOrderDetail(orderId: string): Promise<MerchantOrder> {
  const answer = await apiRequest('GET', `/api/orders/${path(orderId)}/detail`);
  return v.parse(MerchantOrderSchema, answer);
}
