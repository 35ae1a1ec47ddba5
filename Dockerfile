# syntax=docker/dockerfile:1
# tianji: the server with the built admin app, production dependencies only, running as the unprivileged `node` user.
# Build: docker build -t tianji .      Run: docker run -p 3000:3000 -v tianji-data:/var/lib/tianji tianji
# See docs/deploy.md (single process, the compose cluster, Kubernetes).

# Node 24, the current LTS (Node 20 reached its end of life on 2026-04-30; the code still runs on 20.19+).
# 1. Build: every workspace's dependencies, then the server (tsc), the admin app, the phone app (vite) and the
#    documentation site (VitePress).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY packages/web-core/package.json packages/web-core/
COPY apps/admin/package.json apps/admin/
COPY apps/mobile/package.json apps/mobile/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies of the server only (no Vue, Vite, TypeScript or test tools in the image).
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY apps/admin/package.json apps/admin/
RUN npm ci --omit=dev --workspace packages/server --no-audit --no-fund && npm cache clean --force

# 3. Runtime.
FROM node:24-slim
# MALLOC_MMAP_THRESHOLD_: glibc gives every allocation of 128 KiB or more its own mapping, returned to the system when
# freed, instead of raising that threshold as large buffers come and go and keeping freed pixels and PNG bytes in its
# heaps. Measured with `npm run bench:memory`: 25-45 MB less RSS after every route (455-471 against 476-527 MB),
# 20-40 MB lower peaks, no measurable CPU cost. MALLOC_ARENA_MAX: the threads (drawing, password, libuv) share two
# allocator heaps instead of one each, which keep what was freed in them: 454-493 against 471-533 MB after every route,
# 527-536 against 536-592 MB at the peak (five runs each). Not tianji settings: the allocator reads them at process start.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/tianji \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/apps/admin/dist apps/admin/dist
COPY --from=build /app/apps/mobile/dist apps/mobile/dist
COPY --from=build /app/docs/.vitepress/dist docs/.vitepress/dist
# The shipped data sets (read-only; see data/README.md). The writable DATA_DIR is a separate volume.
COPY data data
RUN mkdir -p /var/lib/tianji && chown node:node /var/lib/tianji
USER node
VOLUME ["/var/lib/tianji"]
EXPOSE 3000
# Ready = the database answers (Redis down is reported in the body but keeps the instance in service).
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: stops listening, finishes in-flight requests, exits within 10 s in every case.
STOPSIGNAL SIGTERM
# As `npm start` runs it. Stack traces name the compiled files; NODE_OPTIONS=--enable-source-maps maps them to the
# TypeScript sources at the cost of ~20 MB of memory (the maps ship in dist).
CMD ["node", "packages/server/dist/server.js"]
