// Routes: GET /api/stores/{id}/link-secret, POST /api/stores/{id}/link-secret/rotate,
// POST /api/stores/{id}/signed-links, POST /api/universal-links/verify
import {
  API_KEY_MESSAGES,
  LinkSecretResponseSchema,
  SignedLinkResponseSchema,
  VerifiedLinkResponseSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import type { RequestSource } from '../../http/client-address.ts';
import { contract } from '../../http/openapi.ts';
import { publicOriginOf } from '../../http/public-origin.ts';
import { clientKey, RateLimiter } from '../../http/rate-limit.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { requireSessionAndSecondFactor } from '../account/second-factor.ts';
import { checkSignedLink } from '../universal-orders/signed-link.ts';
import { SignLinkBody, type VerifiedLinkView, VerifyLinkBody } from './model.ts';
import { getLinkSecret, rotateLinkSecret, signLink } from './service.ts';

const tags = ['signed links'];

/** Verifications one client may ask for per minute (each checkout page load of a signed link). */
export const LINK_VERIFY_LIMIT = { bucket: 'link-verify:client', max: 60, windowMs: 60_000 };
/** Text of the verification's 429. */
export const LINK_VERIFY_LIMITED = 'Too many payment links checked from your network';

/**
 * A store owner's link secret and signed universal-checkout links, and the public check of a
 * signed link that the checkout page makes before the shopper fills the form.
 */
export const linkSigningModule = ({ db, config }: AppDeps) => {
  const signedIn = signedInGuard(db);
  const limiter = new RateLimiter(db);
  // Note: whoever has the secret can sign links that pass for the store's own: read and rotated
  // from a signed-in session only (a leaked API key signs links through signed-links, never
  // learning it), with a fresh code once two-step verification is on.
  const secretOwner = (session: Parameters<typeof requireSessionAndSecondFactor>[1]) =>
    requireSessionAndSecondFactor(db, session, API_KEY_MESSAGES.secretSessionRequired);
  return new Elysia({ name: 'link-signing' })
    .use(sessionPlugin(db))
    .get(
      '/api/stores/:id/link-secret',
      async ({ params, request, requireSessionUser }) =>
        getLinkSecret(db, (await secretOwner({ request, requireSessionUser })).id, params.id),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary:
            "Your store's link secret, made on first read (a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on)",
          ok: { 200: LinkSecretResponseSchema },
          errors: ['not_found', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/stores/:id/link-secret/rotate',
      async ({ params, request, requireSessionUser }) =>
        rotateLinkSecret(db, (await secretOwner({ request, requireSessionUser })).id, params.id),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary:
            'A new link secret; links signed with the old one are refused (a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on)',
          ok: { 200: LinkSecretResponseSchema },
          errors: ['not_found', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/stores/:id/signed-links',
      async ({ params, body, request, requireUser, set }) => {
        const link = await signLink(db, {
          ownerId: (await requireUser()).id,
          storeId: params.id,
          link: body.link,
          origin: publicOriginOf(config, request),
          allowPrivate: config.allowPrivateWebhooks,
        });
        set.status = 201;
        return link;
      },
      {
        transform: signedIn,
        body: SignLinkBody,
        ...contract({
          tags,
          summary:
            "Sign a universal-checkout link for your store (it must pay the store's payout address)",
          ok: { 201: SignedLinkResponseSchema },
          errors: ['not_found'],
          access: 'merchant',
        }),
      },
    )
    .post(
      '/api/universal-links/verify',
      async ({ body }): Promise<VerifiedLinkView> => {
        const check = await checkSignedLink(db, body.link);
        return check.signed
          ? { signed: true, storeId: check.storeId, storeName: check.storeName }
          : { signed: false };
      },
      {
        transform: (context: RequestSource & { set: { headers: Record<string, unknown> } }) =>
          limiter.enforce(context.set, [
            {
              limit: LINK_VERIFY_LIMIT,
              key: clientKey(context, config),
              reason: LINK_VERIFY_LIMITED,
            },
          ]),
        body: VerifyLinkBody,
        ...contract({
          tags,
          summary:
            'Check a checkout link: { signed: false } when hand-made, the store when signed, 422 when altered',
          ok: { 200: VerifiedLinkResponseSchema },
          errors: ['rate_limited'],
        }),
      },
    );
};
