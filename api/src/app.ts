// The HTTP API: Elysia with the error handler, OpenAPI and every feature module.
import { Elysia } from 'elysia';
import type { AppDeps } from './context.ts';
import { bodyLimit } from './http/body-limit.ts';
import { errorHandler } from './http/error-handler.ts';
import { idempotencyPlugin } from './http/idempotency.ts';
import { requestsInFlight } from './http/in-flight.ts';
import { openapiDocs } from './http/openapi.ts';
import { requestOriginGuard } from './http/request-origin.ts';
import { securityHeaders } from './http/security-headers.ts';
import { accountModule } from './modules/account/index.ts';
import { analyticsModule } from './modules/analytics/index.ts';
import { apiKeysModule } from './modules/api-keys/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { authModule } from './modules/auth/index.ts';
import { checkoutSessionsModule } from './modules/checkout-sessions/index.ts';
import { customersModule } from './modules/customers/index.ts';
import { discountsModule } from './modules/discounts/index.ts';
import { downloadsModule } from './modules/downloads/index.ts';
import { forwardingModule } from './modules/forwarding/index.ts';
import { healthModule } from './modules/health/index.ts';
import { invoicesModule } from './modules/invoices/index.ts';
import { linkSigningModule } from './modules/link-signing/index.ts';
import { ordersModule } from './modules/orders/index.ts';
import { paymentsModule } from './modules/payments/index.ts';
import { payoutsModule } from './modules/payouts/index.ts';
import { productsModule } from './modules/products/index.ts';
import { refundsModule } from './modules/refunds/index.ts';
import { reviewsModule } from './modules/reviews/index.ts';
import { storeManifestModule } from './modules/store-manifest/index.ts';
import { storesModule } from './modules/stores/index.ts';
import { teamModule } from './modules/team/index.ts';
import { universalOrdersModule } from './modules/universal-orders/index.ts';
import { uploadsModule } from './modules/uploads/index.ts';
import { webAppModule } from './modules/web-app/index.ts';
import { webhooksModule } from './modules/webhooks/index.ts';
import { wellKnownModule } from './modules/well-known/index.ts';
import { x402Module } from './modules/x402/index.ts';

// Note: the feature modules in two groups: one chain of them all is deeper than TypeScript
// instantiates Elysia's types (TS2589).
/** Accounts, stores, their catalogue and books, orders and their payments. */
function accountAndStoreModules(deps: AppDeps) {
  return new Elysia()
    .use(healthModule(deps))
    .use(authModule(deps))
    .use(accountModule(deps))
    .use(storesModule(deps))
    .use(productsModule(deps))
    .use(analyticsModule(deps))
    .use(payoutsModule(deps))
    .use(customersModule(deps))
    .use(discountsModule(deps))
    .use(teamModule(deps))
    .use(auditModule(deps))
    .use(ordersModule(deps))
    .use(invoicesModule(deps))
    .use(paymentsModule(deps));
}

/** Links, sessions, webhooks, keys, reviews, forwarding, refunds, files and x402. */
function orderAndPaymentModules(deps: AppDeps) {
  return new Elysia()
    .use(universalOrdersModule(deps))
    .use(linkSigningModule(deps))
    .use(webhooksModule(deps))
    .use(apiKeysModule(deps))
    .use(checkoutSessionsModule(deps))
    .use(reviewsModule(deps))
    .use(forwardingModule(deps))
    .use(refundsModule(deps))
    .use(wellKnownModule(deps))
    .use(storeManifestModule(deps))
    .use(uploadsModule(deps))
    .use(downloadsModule(deps))
    .use(x402Module(deps));
}

/** Builds the API without listening, so tests can call `app.handle(request)`. */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .use(requestsInFlight())
    .use(errorHandler())
    .use(securityHeaders(deps.config))
    .use(openapiDocs({ title: 'Storefront API', version: '0.1.0' }))
    .use(bodyLimit())
    .use(
      requestOriginGuard({
        allowedOrigins: deps.config.allowedOrigins,
        trustProxy: deps.config.trustProxy,
      }),
    )
    .use(idempotencyPlugin(deps.db, { trustProxy: deps.config.trustProxy }))
    .use(accountAndStoreModules(deps))
    .use(orderAndPaymentModules(deps))
    .use(deps.config.webDist ? webAppModule(deps.config.webDist) : new Elysia());
}

export type App = ReturnType<typeof createApp>;
