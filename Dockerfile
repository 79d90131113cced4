# syntax=docker/dockerfile:1
# The PR compliance gate's server (docs/operations.md, "Run in a container").
#   docker build -t pr-compliance-gate .
#   docker run --env-file gate.env -p 3000:3000 -v gate-data:/data pr-compliance-gate
# Both stages use the same Node 22 LTS / Debian bookworm (glibc) base: better-sqlite3 and the
# @ast-grep native addons built or unpacked in the first run unchanged in the second.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
# A C++ toolchain for better-sqlite3, where no prebuilt binary can be downloaded.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
# Dependencies first (a layer that changes only with the lockfile); their install scripts run
# below, once the sources are there: the two package.json's allowScripts approves.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm rebuild better-sqlite3 esbuild && npm run build
# The runtime's files: the package as `npm pack` makes it, installed from its tarball with
# production dependencies only, under the package's own allowScripts (its own `prepare`, which builds
# from sources, denied: the tarball holds dist/). scripts/pack-install-check.ts
# (a step of .ci/run) does the same outside a container and runs the demo and /healthz from it.
RUN npm pack --ignore-scripts --pack-destination /tmp \
 && mkdir -p /opt/gate \
 && node -e 'const p = require("/src/package.json"); require("fs").writeFileSync("/opt/gate/package.json", JSON.stringify({ name: "gate-image", private: true, allowScripts: { ...p.allowScripts, [`file:/tmp/${p.name}-${p.version}.tgz`]: false } }))' \
 && cd /opt/gate \
 && npm install --omit=dev --prefer-offline --no-audit --no-fund "$(ls /tmp/pr-compliance-gate-*.tgz)"

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PATH=/opt/gate/node_modules/.bin:$PATH \
    PORT=3000 \
    GATE_DATA_DIR=/data \
    GATE_DB=/data/gate.db
COPY --from=build /opt/gate /opt/gate
# All state under one volume: the SQLite file (GATE_DB) and the head snapshots (GATE_DATA_DIR).
# With GATE_DATABASE_URL the state is in PostgreSQL and /data holds only the snapshot cache.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
WORKDIR /data
# The official image's unprivileged user (uid 1000).
USER node
EXPOSE 3000
# 200 once the server is ready (GET /healthz); no curl in the slim image, so Node asks.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# `npm start`: node dist/main.js (SIGTERM closes the server). `gate` (the CLI) is on PATH too:
#   docker exec <container> gate status acme/web#7
CMD ["node", "/opt/gate/node_modules/pr-compliance-gate/dist/main.js"]
