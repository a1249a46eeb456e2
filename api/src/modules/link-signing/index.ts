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
import { accessPlugin } from '../../http/access.ts';
import type { RequestSource } from '../../http/client-address.ts';
import { contract } from '../../http/openapi.ts';
import { publicOriginOf } from '../../http/public-origin.ts';
import { clientKey, RateLimiter } from '../../http/rate-limit.ts';
import { checkSignedLink } from '../universal-orders/signed-link.ts';
import { SignLinkBody, type VerifiedLinkView, VerifyLinkBody } from './model.ts';
import { getLinkSecret, rotateLinkSecret, signLink } from './service.ts';

const tags = ['signed links'];
// Note: whoever has the secret can sign links that pass for the store's own: read and rotated
// from a signed-in session only (a leaked API key signs links through signed-links, never
// learning it), with a fresh code once two-step verification is on.
const SECRET_OWNER = { secondFactor: API_KEY_MESSAGES.secretSessionRequired };

/** Verifications one client may ask for per minute (each checkout page load of a signed link). */
export const LINK_VERIFY_LIMIT = { bucket: 'link-verify:client', max: 60, windowMs: 60_000 };
/** Text of the verification's 429. */
export const LINK_VERIFY_LIMITED = 'Too many payment links checked from your network';

/**
 * A store owner's link secret and signed universal-checkout links, and the public check of a
 * signed link that the checkout page makes before the shopper fills the form.
 */
export const linkSigningModule = ({ db, config }: AppDeps) => {
  const limiter = new RateLimiter(db);
  return new Elysia({ name: 'link-signing' })
    .use(accessPlugin(db))
    .get(
      '/api/stores/:id/link-secret',
      async ({ params, user }) => getLinkSecret(db, user, params.id),
      {
        access: SECRET_OWNER,
        ...contract({
          tags,
          summary:
            "Your store's link secret, made on first read (a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on)",
          ok: { 200: LinkSecretResponseSchema },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/stores/:id/link-secret/rotate',
      async ({ params, user }) => rotateLinkSecret(db, user, params.id),
      {
        access: SECRET_OWNER,
        ...contract({
          tags,
          summary:
            'A new link secret; links signed with the old one are refused (a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on)',
          ok: { 200: LinkSecretResponseSchema },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/stores/:id/signed-links',
      async ({ params, body, request, set, user }) => {
        const link = await signLink(db, {
          caller: user,
          storeId: params.id,
          link: body.link,
          origin: publicOriginOf(config, request),
          allowPrivate: config.allowPrivateWebhooks,
        });
        set.status = 201;
        return link;
      },
      {
        body: SignLinkBody,
        access: 'merchant',
        ...contract({
          tags,
          summary:
            "Sign a universal-checkout link for your store (it must pay the store's payout address). A `discountCode` parameter must be one of the store's codes that applies to the link's items (else 422 with the reason); the signature covers it",
          ok: { 201: SignedLinkResponseSchema },
          errors: ['not_found'],
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
