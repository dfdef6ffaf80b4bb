# Snip: TypeScript run natively by Node 24 (no build step), production dependencies only, non-root.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY scripts/warm-compile-cache.ts ./scripts/
USER node
# Snip's modules compiled once into Node's compile cache (/tmp of the image), as `npm ci` does: a
# container's first start then strips and compiles none of them (docs/adr/053).
RUN node --disable-warning=ExperimentalWarning --max-semi-space-size=16 scripts/warm-compile-cache.ts
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8080/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrations run at start (idempotent, safe when several instances start together). The flags of
# package.json's start: young generation bounded at 16 MB semi-spaces (docs/adr/018, docs/adr/053).
CMD ["node", "--disable-warning=ExperimentalWarning", "--max-semi-space-size=16", "bin/snip.js", "serve"]
