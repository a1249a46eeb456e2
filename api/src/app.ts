// The HTTP API: Elysia with the error handler, OpenAPI and every feature module.
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import type { PublicClient } from 'viem';
import type { ApiConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { errorHandler } from './http/error-handler.ts';
import { healthModule } from './modules/health/index.ts';
import { webAppModule } from './modules/web-app/index.ts';

/** Everything the routes need, built once at start-up (or by a test). */
export interface AppDeps {
  db: Database;
  config: ApiConfig;
  chain: PublicClient;
}

/** Builds the API without listening, so tests can call `app.handle(request)`. */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .use(errorHandler())
    .use(
      openapi({
        path: '/api/openapi',
        documentation: { info: { title: 'Storefront API', version: '0.1.0' } },
      }),
    )
    .use(healthModule(deps))
    .use(deps.config.webDist ? webAppModule(deps.config.webDist) : new Elysia());
}

export type App = ReturnType<typeof createApp>;
