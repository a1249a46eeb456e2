// The hosted checkout's calls: the session's public read and the shopper's submission. Answers are
// checked against the shared schemas.
import {
  type CompleteCheckoutSession,
  CompletedCheckoutSessionSchema,
  type PublicCheckoutSession,
  PublicCheckoutSessionSchema,
} from '@store/shared';
import * as v from 'valibot';
import { apiGet, apiRequest } from './api.ts';
import { rememberReviewToken } from './review-tokens.ts';

/** GET /api/checkout-sessions/{id}/public. */
export async function fetchCheckoutSession(id: string): Promise<PublicCheckoutSession> {
  return v.parse(
    PublicCheckoutSessionSchema,
    await apiGet(['/api/checkout-sessions', id, 'public']),
  );
}

/** POST /api/checkout-sessions/{id}/complete: the order to pay (the same one when sent again). */
export async function completeCheckoutSession(
  id: string,
  body: CompleteCheckoutSession,
  idempotencyKey: string,
): Promise<string> {
  const path = `/api/checkout-sessions/${encodeURIComponent(id)}/complete`;
  const answer = await apiRequest('POST', path, body, { idempotencyKey });
  const completed = v.parse(CompletedCheckoutSessionSchema, answer);
  if (completed.reviewToken) rememberReviewToken(completed.orderId, completed.reviewToken);
  return completed.orderId;
}
