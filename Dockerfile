# One image for the API (which serves the built web app), the settlement worker, the indexer and the
# one-shot migrate step. Two stages: the build has every dependency and builds the web app; the
# runtime has production dependencies only (no Vite, Playwright, Lighthouse or test tools), the
# built app, and runs as an unprivileged user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install -g bun@1.4.5
COPY package.json bun.lock bunfig.toml ./
COPY patches/ patches/
COPY shared/package.json shared/
COPY api/package.json api/
COPY indexer/package.json indexer/
COPY web/package.json web/
COPY stack/package.json stack/
RUN bun install --frozen-lockfile
COPY . .
RUN cd web && bun run build

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
RUN npm install -g bun@1.4.5 \
  && groupadd --system app \
  && useradd --system --gid app --home-dir /app --shell /usr/sbin/nologin app
COPY package.json bun.lock bunfig.toml ./
COPY patches/ patches/
COPY shared/package.json shared/
COPY api/package.json api/
COPY indexer/package.json indexer/
COPY web/package.json web/
COPY stack/package.json stack/
# Note: --production leaves out every devDependency of every workspace: web's build and test tools,
# and the whole local stack (anvil, embedded Postgres, Circle's contract artifacts).
RUN bun install --frozen-lockfile --production && rm -rf /root/.bun/install/cache
COPY shared/ shared/
COPY api/ api/
COPY indexer/ indexer/
COPY --from=build /app/web/dist web/dist
# Note: Ponder writes its generated files (.ponder/, ponder-env.d.ts) into its own folder.
RUN chown -R app:app /app/indexer
USER app
ENV WEB_DIST=/app/web/dist
EXPOSE 3000
# Liveness of the API: any answer (503 names a dependency that is down; that is /api/health's job).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then(() => process.exit(0), () => process.exit(1))"]
CMD ["bun", "api/src/index.ts"]
