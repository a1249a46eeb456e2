// A store's team in tests: accounts signed up with an email, and members who joined by accepting
// the invitation mailed to them (the real flow, read from the mail outbox).
import { expect } from 'bun:test';
import type { StoreRole } from '@store/shared';
import { and, desc, eq } from 'drizzle-orm';
import { emailOutbox } from '../../src/db/schema.ts';
import { apiClient, sessionCookieOf } from './client.ts';
import type { Merchant, TestApi } from './test-api.ts';

/** The password of the accounts made here. */
export const TEAM_PASSWORD = 'correct horse battery';

type Api = TestApi<never> & { owner: Merchant };

/** A new account with an email, signed in. */
export async function account(t: Pick<Api, 'shopper' | 'app'>, prefix: string) {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const response = await t.shopper.post('/api/auth/sign-up', {
    username: `${prefix}-${crypto.randomUUID().slice(0, 8)}`,
    password: TEAM_PASSWORD,
    email,
  });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  const cookie = sessionCookieOf(response);
  return { email, id: response.body.user.id as string, cookie, api: apiClient(t.app, cookie) };
}

/** The token of the newest invitation mailed to `email`. */
export async function invitationToken(t: Pick<Api, 'testDb'>, email: string) {
  const [mail] = await t.testDb.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.kind, 'team_invitation')))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  const url = new URL(String(mail?.payload?.url));
  expect(url.pathname).toBe('/accept-invitation');
  return url.searchParams.get('token') ?? '';
}

/** Invites a new account to `storeId` with `role` (the owner's session) and has it accept. */
export async function member(
  t: Pick<Api, 'shopper' | 'app' | 'testDb' | 'owner'>,
  storeId: string,
  role: Exclude<StoreRole, 'owner'>,
  limit?: string,
) {
  const who = await account(t, role);
  const invited = await t.owner.api.post(`/api/stores/${storeId}/invitations`, {
    email: who.email.toUpperCase(),
    role,
    ...(limit ? { refundLimitUsdc: limit } : {}),
  });
  expect(invited.status).toBe(201);
  const accepted = await who.api.post('/api/invitations/accept', {
    token: await invitationToken(t, who.email),
  });
  expect(accepted.status).toBe(200);
  expect(accepted.body).toMatchObject({ storeId, role });
  return who;
}
