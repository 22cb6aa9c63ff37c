# syntax=docker/dockerfile:1
# The svc rollup node as an image: the sources are compiled and packed in one stage, the tarball is installed with
# production dependencies only in a second, and a slim runtime stage runs the compiled JavaScript as a non-root user.
# What was tested without a container engine, and what was not: README.md, "Production".

# Build: the whole toolchain (TypeScript, tests' dependencies) compiles dist/ and packs the tarball operators install.
FROM node:20-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
# npm install, not npm ci: the lock cannot name anvil's binaries for other platforms (see .ci/run); it is honoured
# for everything else.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm pack --pack-destination /tmp && mv /tmp/svc-rollup-node-*.tgz /tmp/svc-rollup-node.tgz

# Install: the tarball and its production dependencies, on an image that has the compiler c-kzg's binding needs.
FROM node:20-bookworm AS install
WORKDIR /opt/svc
COPY --from=build /tmp/svc-rollup-node.tgz /tmp/svc-rollup-node.tgz
RUN echo '{ "name": "svc-node-install", "private": true }' > package.json \
  && npm install --omit=dev --no-audit --no-fund /tmp/svc-rollup-node.tgz \
  && rm /tmp/svc-rollup-node.tgz

# Runtime: node and the installed package, nothing else.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
  DATA_DIRECTORY=/data \
  SVC_PORT=8080 \
  SVC_ADMIN_PORT=8880 \
  SVC_ADMIN_HOST=127.0.0.1 \
  P2P_PORT=40400
COPY --from=install /opt/svc /opt/svc
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
# The public JSON-RPC port and the p2p port (TCP for libp2p, UDP for discovery). The admin port is not exposed: it
# listens on 127.0.0.1 inside the container unless SVC_ADMIN_HOST says otherwise.
EXPOSE 8080 40400/tcp 40400/udp
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SVC_PORT || 8080) + '/status', { signal: AbortSignal.timeout(4000) }).then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/opt/svc/node_modules/svc-rollup-node/dist/adapters/cli/main.js"]
CMD ["start", "--node"]
