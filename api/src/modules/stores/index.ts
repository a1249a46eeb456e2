// Routes: GET /api/stores, POST /api/stores, GET /api/stores/{slugOrId}, PUT /api/stores/{id},
// POST /api/stores/{id}/verification/challenge, POST /api/stores/{id}/verification
import {
  API_KEY_MESSAGES,
  CreateStoreSchema,
  PAGE_LIMITS,
  PayoutChallengeSchema,
  PublicStoreSchema,
  StoreSchema,
  VerifyPayoutSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { mailOriginOrNull, publicOriginOf } from '../../http/public-origin.ts';
import { sessionPlugin } from '../../http/session.ts';
import { requireSessionAndSecondFactor } from '../account/second-factor.ts';
import { auditActorOf } from '../audit/record.ts';
import { refuseUnpayableAddress } from '../payouts/payout-address.ts';
import { requirePermission } from '../team/access.ts';
import { ListStoresQuery, UpdateStoreBody } from './model.ts';
import {
  createStore,
  getOwnStoreOrThrow,
  getStoreForViewer,
  guardedChangesOf,
  listActiveStores,
  listOwnStores,
  payoutAddressChanges,
  updateStore,
} from './service.ts';
import { issuePayoutChallenge, verifyPayoutAddress } from './verification.ts';

const tags = ['stores'];
const payoutChallenge = registerResponseSchema('PayoutChallenge', PayoutChallengeSchema);

/** Store listing and lookup for everyone; creation and edits for the signed-in owner. */
export const storesModule = ({ db, config }: AppDeps) => {
  const noticeContext = (request: Request) => ({ origin: mailOriginOrNull(config, request) });
  return new Elysia({ name: 'stores' })
    .use(sessionPlugin(db))
    .use(accessPlugin(db))
    .get(
      '/api/stores',
      async ({ query, request, requireUser, set }) => {
        if (query.mine === 'true') return listOwnStores(db, await requireUser());
        const limit = query.limit ?? PAGE_LIMITS.default;
        const offset = query.offset ?? 0;
        const page = await listActiveStores(db, { limit: limit + 1, offset });
        // Note: one row more than asked tells whether a next page exists (RFC 8288 `Link`).
        if (page.length > limit) {
          const next = new URL(request.url);
          next.searchParams.set('limit', String(limit));
          next.searchParams.set('offset', String(offset + limit));
          set.headers.link = `<${next.pathname}${next.search}>; rel="next"`;
        }
        return page.slice(0, limit);
      },
      {
        query: ListStoresQuery,
        access: 'optional',
        ...contract({
          tags,
          summary:
            'Active stores (public fields, pages of `limit` from `offset`, `Link: rel="next"`); `mine=true`: your own stores',
          ok: {
            200: v.union([v.array(StoreSchema), v.array(PublicStoreSchema)]),
          },
          errors: ['unauthorized'],
        }),
      },
    )
    .post(
      '/api/stores',
      // Note: a new store is where new sales can be sent: a signed-in session only (a leaked key
      // must not open a store on a slug it freed), with the second factor where it is on.
      async ({ body, request, server, set, user }) => {
        await refuseUnpayableAddress(db, config, body.paymentAddress);
        const actor = auditActorOf({ request, server }, user, config);
        const store = await createStore(db, user.id, body, noticeContext(request), actor);
        set.status = 201;
        return store;
      },
      {
        body: CreateStoreSchema,
        access: { secondFactor: API_KEY_MESSAGES.storeSessionRequired },
        ...contract({
          tags,
          summary:
            'Create a store you own (a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on; the owner is emailed)',
          ok: { 201: StoreSchema },
          errors: ['already_exists', 'rate_limited'],
        }),
      },
    )
    .get(
      '/api/stores/:id',
      async ({ params, currentUser }) =>
        getStoreForViewer(db, params.id, (await currentUser()) ?? undefined),
      {
        access: 'optional',
        ...contract({
          tags,
          summary: 'A store by id (UUID) or slug (its owner reads the owner view)',
          ok: { 200: v.union([StoreSchema, PublicStoreSchema]) },
          errors: ['not_found'],
        }),
      },
    )
    .put(
      '/api/stores/:id',
      async ({ params, body, request, requireSessionUser, server, user }) => {
        const current = await getOwnStoreOrThrow(db, user, params.id, 'manage');
        // Note: where the money goes is the owner's alone ('payout').
        if (payoutAddressChanges(current.paymentAddress, body.paymentAddress))
          requirePermission(current, 'payout');
        // Note: where the sales go (payout address, slug, open or closed) is changed in a
        // signed-in session only, never with an API key, and with a fresh code (X-TOTP-Code)
        // once two-step verification is on: a leaked key or session must not redirect them.
        const allowed = guardedChangesOf(current, body);
        if (allowed.length > 0)
          await requireSessionAndSecondFactor(
            db,
            { request, requireSessionUser },
            API_KEY_MESSAGES.storeSessionRequired,
          );
        await refuseUnpayableAddress(db, config, body.paymentAddress);
        return updateStore(db, current, body, {
          allowed,
          notice: noticeContext(request),
          actor: auditActorOf({ request, server }, user, config),
        });
      },
      {
        body: UpdateStoreBody,
        access: 'merchant',
        ...contract({
          tags,
          summary:
            'Edit your store (send `updatedAt` to detect stale edits); a new payout address or slug, or deactivating it, needs a signed-in session and a fresh `X-TOTP-Code` once two-step verification is on (the owner is emailed)',
          ok: { 200: StoreSchema },
          errors: ['not_found', 'stale_version', 'already_exists', 'forbidden', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/stores/:id/verification/challenge',
      async ({ params, request, set, user }) => {
        const context = { origin: publicOriginOf(config, request), chainId: config.chain.chainId };
        const challenge = await issuePayoutChallenge(db, user, params.id, context);
        set.status = 201;
        return challenge;
      },
      {
        access: 'session',
        ...contract({
          tags,
          summary:
            'Start "Verified Store": the EIP-4361 message your payout wallet signs (valid 10 minutes, once)',
          ok: { 201: payoutChallenge },
          errors: ['not_found', 'invalid_state'],
        }),
      },
    )
    .post(
      '/api/stores/:id/verification',
      async ({ params, body, request, user }) => {
        const context = { origin: publicOriginOf(config, request), chainId: config.chain.chainId };
        return verifyPayoutAddress(db, user, params.id, body, context);
      },
      {
        body: VerifyPayoutSchema,
        access: 'session',
        ...contract({
          tags,
          summary:
            'Finish "Verified Store" with the signed message (it must recover the current payout address)',
          ok: { 200: StoreSchema },
          errors: ['not_found', 'invalid_state'],
        }),
      },
    );
};
