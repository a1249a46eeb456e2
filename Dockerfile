# One image for the API (which serves the built web app), the settlement worker and the indexer.
FROM node:20-bookworm-slim
WORKDIR /app
RUN npm install -g bun@1.4.5
COPY package.json bun.lock bunfig.toml ./
COPY shared/package.json shared/
COPY api/package.json api/
COPY indexer/package.json indexer/
COPY web/package.json web/
RUN bun install --frozen-lockfile
COPY . .
RUN cd web && bun run build
ENV WEB_DIST=/app/web/dist
EXPOSE 3000 42069
CMD ["bun", "api/src/index.ts"]
