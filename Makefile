# boxoffice: everything a fresh machine with Go and Node.js needs.
#   make run    serve on http://localhost:8080 (SQLite in data/, demo catalog)
#   make test   every test, with the race detector

GO   ?= go
NPM  ?= npm
BIN  ?= bin/boxoffice

# npm writes node_modules/.package-lock.json on every install: newer than
# both package files means node_modules is current, and npm ci can be skipped.
NODE_STAMP := node_modules/.package-lock.json
HTMX       := static/vendor/htmx.min.js
JSQR       := static/vendor/jsQR.js

.PHONY: all run test generate check-generated lint build bench test-mongo assets clean

all: lint test

## assets: install the pinned npm packages and copy htmx and jsQR (the door's
## QR decoder) where static/ embeds them
assets: $(HTMX) $(JSQR)

$(NODE_STAMP): package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

$(HTMX): $(NODE_STAMP)
	@mkdir -p $(@D)
	cp node_modules/htmx.org/dist/htmx.min.js $@

$(JSQR): $(NODE_STAMP)
	@mkdir -p $(@D)
	cp node_modules/jsqr/dist/jsQR.js $@

## run: serve with the defaults (see "go run ./cmd/boxoffice help"); show
## times in India's zone, where the demo theatres are, unless TZ says otherwise
run: assets
	TZ="$${TZ:-Asia/Kolkata}" $(GO) run ./cmd/boxoffice serve

## test: every package, race detector on, nothing cached; the end-to-end
## browser tests run last, on their own, so they do not share a small CI
## machine's CPUs with every other package's tests; internal/web alone
## takes about ten minutes under the race detector there, past go test's
## default timeout, so the limit is 20 minutes
test: assets
	$(GO) test -race -count=1 -timeout 20m $$($(GO) list ./... | grep -v /internal/e2e)
	$(GO) test -race -count=1 -timeout 20m ./internal/e2e/...
	@[ -n "$$MONGODB_URI" ] || echo 'NOTE: MONGODB_URI is not set: the MongoDB conformance suite was SKIPPED (set it to a replica set, then make test-mongo)'

## test-mongo: the MongoDB adapter and the command's MongoDB tests against
## MONGODB_URI (a replica set); they fail instead of skipping without it
test-mongo: assets
	REQUIRE_MONGO=1 $(GO) test -race -count=1 ./internal/mongo/...
	REQUIRE_MONGO=1 $(GO) test -race -count=1 -run Mongo ./cmd/boxoffice/

## bench: benchmarks only
bench: assets
	$(GO) test -run='^$$' -bench=. -benchmem ./...

## generate: regenerate templ's *_templ.go (committed). Always from views/,
## since templ records each file's name relative to -path in the output.
generate:
	$(GO) tool templ generate -path views

## check-generated: fail when the committed *_templ.go differ from what templ generates
check-generated: generate
	@git diff --exit-code -- '*_templ.go' || { echo 'generated templ code is stale: run make generate and commit'; exit 1; }
	@untracked="$$(git ls-files --others --exclude-standard -- '*_templ.go')"; \
	if [ -n "$$untracked" ]; then echo "generated but not committed:"; echo "$$untracked"; exit 1; fi

## lint: gofmt and go vet
lint:
	@unformatted="$$(gofmt -l $$(git ls-files --cached --others --exclude-standard -- '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "not gofmt'ed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

## build: a static binary in bin/
build: assets
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w' -o $(BIN) ./cmd/boxoffice

clean:
	rm -rf bin node_modules static/vendor/*.js
