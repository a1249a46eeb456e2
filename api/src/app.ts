// The HTTP API: Elysia with the error handler, OpenAPI and every feature module.
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import { errorHandler } from './http/error-handler.ts';
import { healthModule } from './modules/health/index.ts';
import type { HealthDeps } from './modules/health/service.ts';
import { webAppModule } from './modules/web-app/index.ts';

/** Everything the routes need, built once at start-up (or by a test). */
export interface AppDeps extends HealthDeps {
  /** Folder of the built web app to serve, if the API serves it (deployments). */
  webDist?: string;
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
    .use(healthModule(deps));
}

export type App = ReturnType<typeof createApp>;
