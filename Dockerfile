# syntax=docker/dockerfile:1
# The Interlingua gateway: `docker build -t interlingua-gateway .` (see docs/deploy.md).
# Node 24 runs the gateway's TypeScript directly; the workspace packages it imports run from
# their built dist/. The runtime image keeps the workspace layout, so workspace links resolve
# outside node_modules (Node strips types only there), with production dependencies alone.

ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS build
# CI: pnpm never waits for a prompt (there is no TTY in a build).
ENV CI=true
WORKDIR /app
RUN corepack enable
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm exec turbo run build --filter=@interlingua/gateway^... --output-logs=errors-only
# Start over with production dependencies only (dev tools, test suites and bench stay behind).
RUN find . -name node_modules -type d -prune -exec rm -rf {} + \
 && pnpm install --frozen-lockfile --prod --filter "@interlingua/gateway..."

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/pnpm-workspace.yaml ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/apps/provider-sim ./apps/provider-sim
COPY --from=build /app/apps/gateway ./apps/gateway
# The dashboard the gateway serves at /dashboard: its built files (bundled, no runtime deps).
COPY --from=build /app/apps/dashboard/package.json /app/apps/dashboard/dist-path.js ./apps/dashboard/
COPY --from=build /app/apps/dashboard/dist ./apps/dashboard/dist
# Files and the generated dev key live here (mount a volume, or use files.s3).
RUN mkdir -p /var/lib/interlingua/files && chown -R node:node /var/lib/interlingua
USER node
WORKDIR /app/apps/gateway
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "src/cli.ts"]
CMD ["serve", "--config", "/etc/interlingua/gateway.yaml"]
