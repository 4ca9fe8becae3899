# syntax=docker/dockerfile:1
# boxoffice: a static binary on distroless, running as non-root, with the
# SQLite file in the /data volume by default.
#
#   docker build -t boxoffice .
#   docker run -p 8080:8080 -v boxoffice-data:/data boxoffice

# Browser assets come from the npm registry, pinned by package-lock.json.
FROM node:22-bookworm-slim AS assets
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
COPY --from=assets /src/node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
COPY --from=assets /src/node_modules/jsqr/dist/jsQR.js static/vendor/jsQR.js
# Pure Go (modernc.org/sqlite), so no cgo and no libc in the final image.
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/boxoffice ./cmd/boxoffice \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/boxoffice /boxoffice
# The volume's mount point belongs to the nonroot user, so a fresh named
# volume is writable too.
COPY --from=build --chown=nonroot:nonroot /out/data /data
USER nonroot:nonroot
# TZ is the zone show times are displayed in (the binary embeds zoneinfo).
ENV ADDR=:8080 \
    DATABASE_URL=sqlite:/data/boxoffice.db \
    TZ=Asia/Kolkata
VOLUME ["/data"]
EXPOSE 8080
# distroless has no curl: the binary checks its own /healthz on ADDR.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["/boxoffice", "healthcheck"]
# SIGTERM drains in-flight requests within 8 s and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/boxoffice"]
CMD ["serve"]
