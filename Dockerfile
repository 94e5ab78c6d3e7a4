# Builds the server and the web console, then runs them from a slim image.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY web/package.json web/package-lock.json ./web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
# MALLOC_ARENA_MAX and the node flag in CMD keep memory under load small: see src/config/process-tuning.ts.
ENV NODE_ENV=production PORT=3000 SQLITE_PATH=/data/one-api.db DATA_DIR=/data MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY nest-cli.json ./
VOLUME /data
EXPOSE 3000
# Healthy means ready to serve (/readyz: database, Redis, migrations; 503 while shutting down).
# Orchestrators with separate probes use /healthz for liveness and /readyz for readiness.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--max-old-space-size=1536", "dist/src/main.js"]
