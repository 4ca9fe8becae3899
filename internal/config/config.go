// Package config reads the settings of boxoffice once, at start, from the
// flags of "boxoffice serve" and the environment (SPEC §4). main passes the
// resulting Config down; nothing else reads the environment.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	netmail "net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"boxoffice/internal/mail"
	"boxoffice/internal/payment"
)

// Config is the configuration of one boxoffice process.
type Config struct {
	Addr     string   // listen address, e.g. ":8080"
	Database Database // where everything is stored
	HoldTTL  time.Duration
	MaxSeats int
	// SalesClose is when sales of a show close, relative to its start
	// (SALES_CLOSE): negative before it, positive after.
	SalesClose time.Duration
	// BoxOfficeClose is when the box office stops selling a show,
	// relative to its start (BOXOFFICE_CLOSE): at least SalesClose.
	BoxOfficeClose time.Duration
	// ReportWeekStart is the first day of a report week (REPORT_WEEK_START,
	// SPEC §17): Friday, the cinema trade's week, by default.
	ReportWeekStart time.Weekday
	// DefaultLang is the language of a visitor who chose none and whose
	// browser asks for none boxoffice speaks (DEFAULT_LANG, SPEC §19).
	DefaultLang string

	// WebhookSecret is the HMAC key of payment callbacks. When it was not
	// configured, Load makes one up and sets WebhookSecretGenerated, so that
	// main can print it: a developer then sees the key the sandbox signs with.
	WebhookSecret          string
	WebhookSecretGenerated bool

	// PublicURL is the base URL the payment provider calls back, without a
	// trailing slash. When it was not configured it is derived from Addr's
	// port (http://localhost:PORT) and PublicURLDerived is set, so that a
	// server listening on port 0 can fix it once the port is known.
	PublicURL        string
	PublicURLDerived bool

	// PaymentProvider names the payment provider main builds: "sandbox" or
	// "stripe".
	PaymentProvider string
	// Stripe is the Stripe provider's settings, when PaymentProvider is
	// "stripe".
	Stripe Stripe
	// RefundAutomatically refunds a booking through the provider as soon
	// as it is due a refund, instead of waiting for an admin.
	RefundAutomatically bool

	AdminEmail    string // with AdminPassword: the admin account made or updated at start
	AdminPassword string
	// AdminIdle ends an admin's or staff member's session after this long
	// without a request (ADMIN_IDLE).
	AdminIdle time.Duration
	// SessionIdle ends a moviegoer's session after this long without a
	// request (SESSION_IDLE).
	SessionIdle time.Duration

	// SMTPURL is where mail goes (SMTP_URL); "" logs each message instead.
	SMTPURL string
	// MailLease is how long a process keeps a mail it is sending before
	// another may try it (MAIL_LEASE).
	MailLease time.Duration
	// MailFrom is the From of every mail (MAIL_FROM); by default
	// "boxoffice <tickets@HOST>", HOST being PUBLIC_URL's.
	MailFrom  string
	SeedDemo  bool // seed the demo catalog into an empty database
	HoldRate  int  // holds per session per minute; 0 disables the limit
	LogFormat string
	// HoldSeatsPerAddress caps the seats held live from one client address
	// in one show (HOLD_SEATS_PER_ADDRESS); 0 disables the cap.
	HoldSeatsPerAddress int
	// MetricsToken, when set, is the bearer token /metrics needs
	// (METRICS_TOKEN); unset, /metrics answers loopback clients only.
	MetricsToken string
	// AllowGaps lets a hold leave a single seat alone (SEAT_GAPS=allow);
	// by default such a hold is refused.
	AllowGaps bool
	// Retention is how long history is kept before it is pruned
	// (RETENTION): sessions, holds, callbacks, events and sent mail.
	Retention time.Duration

	// TrustedProxies are the proxies (load balancers, CDNs) whose
	// X-Forwarded-For entries are believed: the client's address, which the
	// per-address limits count by, is the nearest untrusted one. Never nil
	// after Load; empty (TRUSTED_PROXIES=none) trusts no proxy, and the
	// client is the connection's peer.
	TrustedProxies []netip.Prefix
}

// Stripe is how to reach Stripe (SPEC §9).
type Stripe struct {
	SecretKey      string   // sk_test_…, sk_live_…, rk_test_… or rk_live_…
	WebhookSecret  string   // whsec_…
	APIBase        string   // Stripe's API, or stripe-mock in tests
	PaymentMethods []string // payment_method_types of a Checkout Session
}

// Payment providers.
const (
	ProviderSandbox = "sandbox"
	ProviderStripe  = "stripe"
)

// Database is a parsed DATABASE_URL.
type Database struct {
	Driver string // DriverSQLite or DriverMongo
	Source string // the file path for SQLite, the whole URI for MongoDB
	URL    string // DATABASE_URL as given
}

// Redacted is the URL with any password masked, for logs and messages.
func (d Database) Redacted() string {
	if d.Driver != DriverMongo {
		return d.URL
	}
	u, err := url.Parse(d.URL)
	if err != nil {
		return d.Driver + "://…"
	}
	return u.Redacted()
}

// Database drivers.
const (
	DriverSQLite = "sqlite"
	DriverMongo  = "mongodb"
)

// Var is one setting: its environment variable, its flag of "boxoffice
// serve", its default and its meaning, and how its text is read. Vars is
// the one list of them: Load reads by it, and "boxoffice help" and the
// table of README.md are written from it.
type Var struct {
	Env  string
	Flag string
	// Default is the text read when neither the flag nor the variable is
	// given; "" leaves the setting unset.
	Default string
	// DefaultNote (markdown) says more of the default: in parentheses
	// after Default, or in its place when Default is "".
	DefaultNote string
	// Usage is what the setting means, in markdown: code spans and links.
	Usage string

	value    flag.Value  // reads the text alone into a Config: a *setting[T]
	secret   bool        // a message about it never shows its text
	required string      // why it is needed, when an empty text is an error
	only     func() bool // when set, the setting is read only if it holds, after those without
}

// Vars lists every setting in the order "boxoffice help" and README.md show
// them.
var Vars = vars(new(Config))

// vars is the table of settings, each reading into c.
func vars(c *Config) []Var {
	stripe := func() bool { return c.PaymentProvider == ProviderStripe }
	sandbox := func() bool { return c.PaymentProvider == ProviderSandbox }
	return []Var{
		{Env: "ADDR", Flag: "addr", Default: ":8080",
			Usage: "listen address",
			value: str(&c.Addr, func(s string) error { _, err := parseAddr(s); return err })},
		{Env: "DATABASE_URL", Flag: "database-url", Default: "sqlite:data/boxoffice.db",
			Usage: "`sqlite:PATH` or a `mongodb://` / `mongodb+srv://` URI",
			value: &setting[Database]{p: &c.Database, parse: ParseDatabaseURL}},
		{Env: "HOLD_TTL", Flag: "hold-ttl", Default: "15m",
			Usage: "how long a lock protects a seat (Go duration, `1s` to `24h`); with Stripe it may outlast a Checkout Session, whose expiry then ends that session only",
			value: duration(&c.HoldTTL, "15m, 90s or 1h30m", time.Second, 24*time.Hour, "must be between 1s and 24h")},
		{Env: "MAX_SEATS", Flag: "max-seats", Default: "10",
			Usage: fmt.Sprintf("most seats in one hold (1 to %d)", MaxMaxSeats),
			value: number(&c.MaxSeats, 1, MaxMaxSeats, fmt.Sprintf("must be from 1 to %d", MaxMaxSeats))},
		{Env: "SALES_CLOSE", Flag: "sales-close", Default: "0s",
			Usage: "when sales of a show close, relative to its start (`-30m`: half an hour before; `10m`: ten minutes after; from `-168h` to `24h`); from then on hold and Pay are `410`, while a payment started before settles normally",
			value: duration(&c.SalesClose, "0s, -30m or 15m", -MaxSalesCloseBefore, MaxSalesCloseAfter, "must be from -168h (a week before the start) to 24h")},
		{Env: "BOXOFFICE_CLOSE", Flag: "boxoffice-close", Default: "30m",
			Usage: "when the box office stops selling a show, relative to its start (signed, like `SALES_CLOSE`, and never before it: unset, it follows a later `SALES_CLOSE`; from `-168h` to `24h`); from then on a counter hold and Sell are `410`",
			value: duration(&c.BoxOfficeClose, "30m, 0s or -15m", -MaxSalesCloseBefore, MaxSalesCloseAfter, "must be from -168h (a week before the start) to 24h")},
		{Env: "PAYMENT_WEBHOOK_SECRET", Flag: "payment-webhook-secret",
			Usage: fmt.Sprintf("HMAC key of the sandbox's callbacks, at least %d characters (unset: generated and printed at start); required when `PUBLIC_URL` is https and whenever more than one process runs; not used with Stripe", MinWebhookSecret),
			value: str(&c.WebhookSecret, func(s string) error {
				return minLength(s, MinWebhookSecret, "; generate one with: openssl rand -hex 32")
			}),
			secret: true, only: sandbox},
		{Env: "PUBLIC_URL", Flag: "public-url", Default: "http://localhost:8080", DefaultNote: "port of `ADDR`",
			Usage: "base URL the payment provider calls back; `https` makes cookies `Secure`",
			value: &setting[string]{p: &c.PublicURL, parse: parsePublicURL}},
		{Env: "PAYMENT_PROVIDER", Flag: "payment-provider", Default: ProviderSandbox,
			Usage: "`stripe` (Stripe Checkout, [docs/PAYMENTS.md](docs/PAYMENTS.md#stripe)) or `sandbox`, a stand-in checkout at `/sandbox/checkout/{paymentID}` that calls back over real HTTP and moves no money: every page then shows a \"Sandbox — no real money\" banner and the start-up log warns. Behind an https `PUBLIC_URL` the sandbox is refused unless chosen explicitly",
			value: &setting[string]{p: &c.PaymentProvider, parse: func(s string) (string, error) {
				switch s = strings.ToLower(strings.TrimSpace(s)); s {
				case ProviderSandbox, ProviderStripe:
					return s, nil
				}
				return "", errors.New("unknown payment provider; use sandbox or stripe")
			}}},
		{Env: "STRIPE_SECRET_KEY", Flag: "stripe-secret-key",
			Usage: "Stripe API key (`sk_test_…`, `sk_live_…`, `rk_…`); required with `stripe`; a live key needs an https `PUBLIC_URL`",
			value: str(&c.Stripe.SecretKey, must(func(s string) bool { return payment.CheckStripeKey(s) == nil },
				"not a Stripe API key; it must start with sk_test_, sk_live_, rk_test_ or rk_live_")),
			secret: true, only: stripe, required: "it is required with PAYMENT_PROVIDER=stripe (Developers → API keys in the Stripe dashboard)"},
		{Env: "STRIPE_WEBHOOK_SECRET", Flag: "stripe-webhook-secret",
			Usage: "signing secret (`whsec_…`) of the webhook endpoint `PUBLIC_URL/payments/stripe/webhook`; required with `stripe`",
			value: str(&c.Stripe.WebhookSecret, must(func(s string) bool { return payment.CheckStripeWebhookSecret(s) == nil },
				"not a webhook signing secret; it must start with whsec_")),
			secret: true, only: stripe, required: "it is required with PAYMENT_PROVIDER=stripe (the signing secret of the webhook endpoint, or of stripe listen)"},
		{Env: "STRIPE_API_BASE", Flag: "stripe-api-base", Default: payment.DefaultStripeAPIBase,
			Usage: "base URL of Stripe's API; the tests point it at `stripe-mock`",
			value: &setting[string]{p: &c.Stripe.APIBase, parse: func(s string) (string, error) {
				if payment.CheckStripeAPIBase(s) != nil {
					return "", errors.New("must be an absolute http(s) URL")
				}
				return strings.TrimRight(s, "/"), nil
			}},
			only: stripe},
		{Env: "STRIPE_PAYMENT_METHODS", Flag: "stripe-payment-methods", Default: "card",
			Usage: "Checkout's payment method types, comma-separated; methods that settle days later make late payments (rescued or refunded)",
			value: &setting[[]string]{p: &c.Stripe.PaymentMethods, parse: parsePaymentMethods},
			only:  stripe},
		{Env: "REFUND_AUTOMATICALLY", Flag: "refund-automatically", Default: "false",
			Usage: "refund a booking through the provider as soon as it is due one (a late payment whose seats were gone), instead of from the admin's refund queue",
			value: boolean(&c.RefundAutomatically)},
		{Env: "ADMIN_EMAIL", Flag: "admin-email",
			Usage: "admin account created or updated at start, with `ADMIN_PASSWORD` (both or neither); one that already has this password is left as it is",
			value: str(&c.AdminEmail, must(func(s string) bool { return s == "" || strings.Contains(strings.Trim(s, "@"), "@") },
				"not an email address"))},
		{Env: "ADMIN_PASSWORD", Flag: "admin-password",
			Usage: "password of `ADMIN_EMAIL`, at least 8 characters",
			value: str(&c.AdminPassword, must(func(s string) bool { return s == "" || len([]rune(s)) >= 8 },
				"must be at least 8 characters")),
			secret: true},
		{Env: "ADMIN_IDLE", Flag: "admin-idle", Default: "30m",
			Usage: "an admin's or staff's session ends after this long without a request (`1m` to `24h`)",
			value: duration(&c.AdminIdle, "30m or 2h", MinAdminIdle, MaxAdminIdle, "must be from 1m to 24h")},
		{Env: "SESSION_IDLE", Flag: "session-idle", Default: "24h",
			Usage: "a moviegoer's session ends after this long without a request (`10m` to `720h`); its deadline moves at most every five minutes, not on every request. A booking never depends on it: its link opens it anywhere",
			value: duration(&c.SessionIdle, "24h or 90m", MinSessionIdle, MaxSessionIdle, "must be from 10m to 720h")},
		{Env: "SMTP_URL", Flag: "smtp-url",
			Usage: "where mail goes: `smtp://user:pass@host:587` (STARTTLS required, except to a loopback host) or `smtps://user:pass@host:465`. Unset, each mail is written to the log instead, which is refused when `PUBLIC_URL` is https. See [docs/MAIL.md](docs/MAIL.md)",
			value: &setting[string]{p: &c.SMTPURL, parse: func(s string) (string, error) {
				if s = strings.TrimSpace(s); s != "" {
					return s, mail.ParseURL(s)
				}
				return "", nil
			}},
			secret: true}, // it may hold a password
		{Env: "MAIL_LEASE", Flag: "mail-lease", Default: "2m",
			Usage: "how long a process keeps a mail it is sending before another may send it (`5s` to `1h`); longer than an SMTP send takes",
			value: duration(&c.MailLease, "2m or 30s", 5*time.Second, time.Hour, "must be from 5s to 1h")},
		{Env: "MAIL_FROM", Flag: "mail-from", DefaultNote: "`boxoffice <tickets@HOST>` (`HOST` of `PUBLIC_URL`)",
			Usage: "the From of every mail: an address, or `Name <address>`",
			value: &setting[string]{p: &c.MailFrom, parse: func(s string) (string, error) {
				if s = strings.TrimSpace(s); s != "" {
					if _, err := netmail.ParseAddress(s); err != nil {
						return "", errors.New("not an email address; write it like tickets@example.com or boxoffice <tickets@example.com>")
					}
				}
				return s, nil
			}}},
		{Env: "SEED_DEMO", Flag: "seed-demo", Default: "true",
			Usage: "seed the demo catalog into an empty database, and keep its shows seven days ahead (at start, then hourly) in a database that holds it; a database filled by `seed` or by admins is left alone, and a demo show an admin deleted stays deleted",
			value: boolean(&c.SeedDemo)},
		{Env: "HOLD_RATE", Flag: "hold-rate", Default: "20",
			Usage: fmt.Sprintf("holds per session per minute (per address: ten times that, not counted for a hold made with an on-sale's pass), counted in the database so the limit holds across processes; `0` disables, at most %d", MaxHoldRate),
			value: number(&c.HoldRate, 0, MaxHoldRate, fmt.Sprintf("must be from 0 (no limit) to %d", MaxHoldRate))},
		{Env: "HOLD_SEATS_PER_ADDRESS", Flag: "hold-seats-per-address", Default: "40",
			Usage: fmt.Sprintf("most seats held at once from one client address in one show, counted by the seat rule over every session and process (a hold over it is `429` with `Retry-After`; a hold made with an on-sale's pass records no address and is not counted); `0` (no cap), or from `MAX_SEATS` to %d", MaxHoldSeatsPerAddress),
			value: number(&c.HoldSeatsPerAddress, math.MinInt, math.MaxInt, "")}, // bounded by validate, MAX_SEATS known
		{Env: "METRICS_TOKEN", Flag: "metrics-token",
			Usage: fmt.Sprintf("bearer token `/metrics` and the profiles under `/debug/pprof/` need (`Authorization: Bearer TOKEN`, else `401`), at least %d characters; unset, they answer loopback clients only (others `403`)", MinMetricsToken),
			value: &setting[string]{p: &c.MetricsToken, parse: func(s string) (string, error) {
				if s = strings.TrimSpace(s); s != "" {
					return s, minLength(s, MinMetricsToken, "; generate one with: openssl rand -hex 32")
				}
				return "", nil
			}},
			secret: true},
		{Env: "SEAT_GAPS", Flag: "seat-gaps", Default: "refuse",
			Usage: "`refuse`: a hold that would leave a single seat alone (between two taken seats, or a taken seat and an aisle or the row's end) is `422` naming the seat (`data-gap-seat`) with the nearest choice that leaves none ticked on the map, unless no such choice exists; checked again inside the store's step. `allow`: no check",
			value: &setting[bool]{p: &c.AllowGaps, parse: func(s string) (bool, error) {
				switch strings.ToLower(strings.TrimSpace(s)) {
				case "refuse":
					return false, nil
				case "allow":
					return true, nil
				}
				return false, errors.New("must be refuse or allow")
			}}},
		{Env: "RETENTION", Flag: "retention", Default: "2160h", DefaultNote: "90 days",
			Usage: "history older than this (at least `24h`) is pruned in small batches: sessions, ended holds, callbacks, events and sent mail; anything a booking or payment refers to is kept",
			value: duration(&c.Retention, "2160h (90 days)", MinRetention, math.MaxInt64, "must be at least 24h")},
		{Env: "REPORT_WEEK_START", Flag: "report-week-start", Default: "friday",
			Usage: "the first day of a report week (an English weekday name, any case), in each theatre's zone: the film report of `/admin/reports/films` covers a week from it ([docs/ADMIN.md](docs/ADMIN.md#film-report))",
			value: &setting[time.Weekday]{p: &c.ReportWeekStart, parse: ParseWeekday}},
		{Env: "DEFAULT_LANG", Flag: "default-lang", Default: "en",
			Usage: "the language of a visitor who chose none (`?lang=`, the `lang` cookie) and whose browser asks for none of boxoffice's: `en` (English), `hi` (Hindi) or `ta` (Tamil); bookings stored before bookings had a language get it as the store opens, and their mails are in it",
			value: str(&c.DefaultLang, must(func(s string) bool { return s == "en" || s == "hi" || s == "ta" }, "must be en, hi or ta"))},
		{Env: "LOG_FORMAT", Flag: "log-format", Default: "text",
			Usage: "`text` or `json`",
			value: str(&c.LogFormat, must(func(s string) bool { return s == "text" || s == "json" }, "must be text or json"))},
		{Env: "TRUSTED_PROXIES", Flag: "trusted-proxies", Default: DefaultTrustedProxies, DefaultNote: "loopback",
			Usage: "proxies whose `X-Forwarded-For` is believed: the client's address, which the per-address limits (holds, held seats, admin sign-in, find my booking) count by, is the right-most address in the header that is not a trusted proxy, and IPv6 clients are counted by their /64; comma-separated CIDRs or addresses, or `none` to use the connection's peer. Behind a load balancer, add its addresses (`deploy/compose.yaml` adds its own network)",
			value: &setting[[]netip.Prefix]{p: &c.TrustedProxies, parse: ParseTrustedProxies}},
	}
}

// ParseWeekday reads an English weekday name in any case ("friday",
// "Monday") with the spaces around it.
func ParseWeekday(s string) (time.Weekday, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.ToLower(d.String()) == name {
			return d, nil
		}
	}
	return 0, errors.New("must be an English weekday name, like friday or monday")
}

// DefaultTrustedProxies trusts the loopback only: a proxy on the same host.
// Trusting more by default would let any client behind a private hop name
// its own address in X-Forwarded-For; a load balancer's network is added
// by whoever deploys one (deploy/compose.yaml does).
const DefaultTrustedProxies = "127.0.0.0/8,::1/128"

// setting is the flag.Value of a setting of type T: Set parses and checks
// the text alone, and stores the value in *p.
type setting[T any] struct {
	p      *T
	parse  func(string) (T, error)
	isBool bool // "--seed-demo" stands for "--seed-demo=true"
}

func (s *setting[T]) String() string {
	if s == nil || s.p == nil {
		return ""
	}
	return fmt.Sprint(*s.p)
}

func (s *setting[T]) Set(text string) error {
	v, err := s.parse(text)
	if err != nil {
		return err
	}
	*s.p = v
	return nil
}

func (s *setting[T]) IsBoolFlag() bool { return s.isBool }

// str is a text setting, taken as it is once check accepts it.
func str(p *string, check func(string) error) *setting[string] {
	return &setting[string]{p: p, parse: func(s string) (string, error) { return s, check(s) }}
}

// must is a check that refuses a text unless ok holds for it.
func must(ok func(string) bool, refusal string) func(string) error {
	return func(s string) error {
		if !ok(s) {
			return errors.New(refusal)
		}
		return nil
	}
}

// duration is a Go duration from lo to hi; example shows how to write one.
func duration(p *time.Duration, example string, lo, hi time.Duration, outside string) *setting[time.Duration] {
	return &setting[time.Duration]{p: p, parse: func(s string) (time.Duration, error) {
		d, err := time.ParseDuration(s)
		switch {
		case err != nil:
			return 0, errors.New("not a duration; write it like " + example)
		case d < lo || d > hi:
			return 0, errors.New(outside)
		}
		return d, nil
	}}
}

// number is a whole number from lo to hi.
func number(p *int, lo, hi int, outside string) *setting[int] {
	return &setting[int]{p: p, parse: func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil:
			return 0, errors.New("not a whole number")
		case n < lo || n > hi:
			return 0, errors.New(outside)
		}
		return n, nil
	}}
}

func boolean(p *bool) *setting[bool] {
	return &setting[bool]{p: p, isBool: true, parse: func(s string) (bool, error) {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return false, errors.New("not a boolean; use true or false")
		}
		return b, nil
	}}
}

// minLength checks the length of a secret; the message never shows it.
func minLength(s string, n int, hint string) error {
	if len(s) < n {
		return fmt.Errorf("must be at least %d characters%s", n, hint)
	}
	return nil
}

// origin is where a setting's text came from.
type origin struct {
	text   string
	source string // "flag --hold-ttl", "HOLD_TTL" or "HOLD_TTL default", to point at what to fix
	given  bool   // by the flag or the variable
}

// bad reports a setting's text; a password in a URL never reaches the message.
func (o origin) bad(format string, args ...any) error {
	return fmt.Errorf("%s=%q: %s", o.source, redactUserinfo(o.text), fmt.Sprintf(format, args...))
}

// given is the flag of a setting: it keeps the text for Load to read with
// the environment, remembering that it was given, since an explicitly empty
// flag must still beat the environment.
type given struct {
	text   string
	given  bool
	isBool bool
}

func (g *given) String() string { return g.text }

func (g *given) Set(text string) error {
	g.text, g.given = text, true
	return nil
}

func (g *given) IsBoolFlag() bool { return g.isBool }

// Load builds the Config from args (the flags after "serve") and getenv. A
// flag beats its environment variable, which beats the default; an empty
// variable counts as unset. Each setting's text is read by its Var, then
// validate checks what needs more than one setting. Every invalid setting
// is reported, not only the first. With -h it returns an error wrapping
// flag.ErrHelp.
func Load(args []string, getenv func(string) string) (Config, error) {
	var c Config
	vs := vars(&c)
	fs := flag.NewFlagSet("boxoffice serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the caller prints usage and errors its own way
	flags := make([]given, len(vs))
	for i, v := range vs {
		b, _ := v.value.(interface{ IsBoolFlag() bool })
		flags[i].isBool = b != nil && b.IsBoolFlag()
		fs.Var(&flags[i], v.Flag, v.Usage)
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}

	read := make(map[string]origin, len(vs))
	var errs []error
	load := func(i int) {
		v := vs[i]
		o := origin{text: v.Default, source: v.Env + " default"}
		if flags[i].given {
			o = origin{text: flags[i].text, source: "flag --" + v.Flag, given: true}
		} else if e := getenv(v.Env); e != "" {
			o = origin{text: e, source: v.Env, given: true}
		}
		read[v.Env] = o
		errs = append(errs, v.read(o)...)
	}
	for i, v := range vs {
		if v.only == nil {
			load(i)
		}
	}
	// Then the settings that only some of those call for.
	for i, v := range vs {
		if v.only != nil && v.only() {
			load(i)
		}
	}
	errs = append(errs, validate(&c, read)...)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
}

// read sets the setting from o's text, which was unset when it is empty
// and not given.
func (v Var) read(o origin) []error {
	switch {
	case o.text == "" && v.required != "":
		return []error{fmt.Errorf("%s is not set: %s", v.Env, v.required)}
	case o.text == "" && !o.given:
		return nil
	}
	err := v.value.Set(o.text)
	if err == nil {
		return nil
	}
	each := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		each = j.Unwrap()
	}
	var errs []error
	for _, err := range each {
		if v.secret {
			errs = append(errs, fmt.Errorf("%s: %v", o.source, err))
		} else {
			errs = append(errs, o.bad("%v", err))
		}
	}
	return errs
}

// validate checks what no setting can alone, and fills in the defaults that
// follow from other settings. A setting whose text was refused is left
// zero in c, which these checks accept.
func validate(c *Config, read map[string]origin) []error {
	var errs []error
	publicURL := read["PUBLIC_URL"]
	if port, err := parseAddr(c.Addr); err == nil && !publicURL.given {
		c.PublicURL, c.PublicURLDerived = "http://localhost:"+port, true
	}
	https := strings.HasPrefix(c.PublicURL, "https://")

	if c.PaymentProvider == ProviderSandbox {
		// The sandbox's secret signs and checks its own callbacks.
		if !read["PAYMENT_WEBHOOK_SECRET"].given {
			c.WebhookSecret, c.WebhookSecretGenerated = generateSecret(), true
			if https {
				// In production each process would make up its own
				// secret, and a callback reaching another process would
				// be refused.
				errs = append(errs, fmt.Errorf("%s is https, so PAYMENT_WEBHOOK_SECRET must be set (the same in every process)", publicURL.source))
			}
		}
		if https && !read["PAYMENT_PROVIDER"].given {
			// Anyone with a checkout link can mark a sandbox payment
			// paid: behind https that is a real site giving tickets away.
			errs = append(errs, fmt.Errorf("%s is https but no PAYMENT_PROVIDER is set: the default, sandbox, takes no money and anyone can mark its payments paid; "+
				"set PAYMENT_PROVIDER=stripe, or PAYMENT_PROVIDER=sandbox to run the sandbox behind https anyway", publicURL.source))
		}
	}
	if c.PaymentProvider == ProviderStripe && payment.IsLiveStripeKey(c.Stripe.SecretKey) && !https {
		errs = append(errs, fmt.Errorf("%s is a live key, so PUBLIC_URL must be https (it is %s): real money needs a real site",
			read["STRIPE_SECRET_KEY"].source, c.PublicURL))
	}

	if https && strings.TrimSpace(read["SMTP_URL"].text) == "" {
		errs = append(errs, fmt.Errorf("%s is https but SMTP_URL is not set: tickets would only be written to the log; "+
			"set SMTP_URL=smtp://user:pass@host:587", publicURL.source))
	}
	if c.MailFrom == "" {
		c.MailFrom = "boxoffice <tickets@" + hostOf(c.PublicURL) + ">"
	}
	if o := read["BOXOFFICE_CLOSE"]; c.BoxOfficeClose < c.SalesClose {
		// The box office sells at least as long as the web site: its
		// default follows a later SALES_CLOSE, a value given may not.
		if o.given {
			errs = append(errs, o.bad("before SALES_CLOSE (%s): the box office sells at least as long as the web site", c.SalesClose))
		} else {
			c.BoxOfficeClose = c.SalesClose
		}
	}

	switch email, password := read["ADMIN_EMAIL"], read["ADMIN_PASSWORD"]; {
	case password.text != "" && email.text == "":
		errs = append(errs, fmt.Errorf("%s is set but ADMIN_EMAIL is not: set both to create the admin account", password.source))
	case email.text != "" && password.text == "":
		errs = append(errs, fmt.Errorf("%s is set but ADMIN_PASSWORD is not: set both to create the admin account", email.source))
	}

	if n := c.HoldSeatsPerAddress; n < 0 || n > 0 && n < c.MaxSeats || n > MaxHoldSeatsPerAddress {
		errs = append(errs, read["HOLD_SEATS_PER_ADDRESS"].bad("must be 0 (no cap) or from MAX_SEATS (%d) to %d", c.MaxSeats, MaxHoldSeatsPerAddress))
	}
	return errs
}

// parsePaymentMethods reads STRIPE_PAYMENT_METHODS: Checkout's payment
// method types, comma-separated.
func parsePaymentMethods(s string) ([]string, error) {
	var methods []string
	var errs []error
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		if !paymentMethodName(m) {
			errs = append(errs, fmt.Errorf("%q is not a payment method type (lower case letters and _, e.g. card)", m))
			continue
		}
		methods = append(methods, m)
	}
	if len(methods) == 0 {
		errs = append(errs, errors.New("names no payment method; use card"))
	}
	return methods, errors.Join(errs...)
}

func paymentMethodName(s string) bool {
	if len(s) > 40 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '_' {
			return false
		}
	}
	return true
}

// ParseTrustedProxies reads a TRUSTED_PROXIES value: "none", or a
// comma-separated list of CIDRs (10.0.0.0/8, 2001:db8::/32) and single
// addresses (203.0.113.7). Host bits of a CIDR are dropped.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return []netip.Prefix{}, nil
	}
	var out []netip.Prefix
	var bad []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(f); err == nil && a.Zone() == "" {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		} else {
			bad = append(bad, strconv.Quote(f))
		}
	}
	switch {
	case len(bad) > 0:
		return nil, fmt.Errorf("%s: not a CIDR (10.0.0.0/8) or an address", strings.Join(bad, ", "))
	case len(out) == 0:
		return nil, errors.New(`names no proxy; write "none" to trust none`)
	}
	return out, nil
}

// Bounds of settings.
const (
	// MaxSalesCloseBefore and MaxSalesCloseAfter bound SALES_CLOSE.
	MaxSalesCloseBefore = 7 * 24 * time.Hour
	MaxSalesCloseAfter  = 24 * time.Hour
	// MinAdminIdle and MaxAdminIdle bound ADMIN_IDLE: under a minute the
	// clock of a session, refreshed once a minute, could not keep it.
	MinAdminIdle = time.Minute
	MaxAdminIdle = 24 * time.Hour
	// MinSessionIdle and MaxSessionIdle bound SESSION_IDLE: a session
	// refreshes its deadline at most every five minutes.
	MinSessionIdle = 10 * time.Minute
	MaxSessionIdle = 30 * 24 * time.Hour
	// MaxHoldSeatsPerAddress bounds HOLD_SEATS_PER_ADDRESS.
	MaxHoldSeatsPerAddress = 100000
	// MinMetricsToken is the shortest METRICS_TOKEN accepted.
	MinMetricsToken = 16
	// MinRetention bounds RETENTION: a day of history at least.
	MinRetention = 24 * time.Hour
	// MaxMaxSeats bounds MAX_SEATS: no party books a whole hall at once.
	MaxMaxSeats = 50
	// MaxHoldRate bounds HOLD_RATE, well below where the per-address limit
	// (ten times it) could overflow.
	MaxHoldRate = 100000
	// MinWebhookSecret is the shortest PAYMENT_WEBHOOK_SECRET accepted.
	MinWebhookSecret = 16
)

// redactUserinfo masks the password of a URL-like s ("scheme://user:pw@host…"),
// even when s doesn't parse as a URL: it is cut between "://" and the last
// "@" before the path.
func redactUserinfo(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	rest := s[i+3:]
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return s
	}
	user, _, hasPassword := strings.Cut(rest[:at], ":")
	if !hasPassword {
		return s
	}
	return s[:i+3] + user + ":xxxxx" + rest[at:]
}

// ParseDatabaseURL accepts "sqlite:PATH" (also "sqlite://PATH") and MongoDB
// URIs.
func ParseDatabaseURL(s string) (Database, error) {
	scheme, rest, ok := strings.Cut(s, ":")
	switch {
	case !ok:
		return Database{}, errors.New("want sqlite:PATH or a mongodb:// / mongodb+srv:// URI")
	case scheme == "sqlite":
		path := strings.TrimPrefix(rest, "//")
		if path == "" {
			return Database{}, errors.New("sqlite: needs a file path, e.g. sqlite:data/boxoffice.db")
		}
		return Database{Driver: DriverSQLite, Source: path, URL: s}, nil
	case scheme == "mongodb" || scheme == "mongodb+srv":
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || !strings.HasPrefix(rest, "//") {
			return Database{}, errors.New("not a valid MongoDB URI; want mongodb://HOST[:PORT]/DB?replicaSet=NAME")
		}
		return Database{Driver: DriverMongo, Source: s, URL: s}, nil
	default:
		return Database{}, fmt.Errorf("unknown scheme %q; want sqlite:PATH or a mongodb:// / mongodb+srv:// URI", scheme)
	}
}

// parseAddr checks a listen address and returns its port.
func parseAddr(addr string) (port string, err error) {
	_, port, err = net.SplitHostPort(addr)
	if err != nil {
		return "", errors.New("not a listen address; want HOST:PORT or :PORT")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", errors.New("port must be a number from 0 to 65535")
	}
	return port, nil
}

func parsePublicURL(s string) (string, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "", errors.New("not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", errors.New("must start with http:// or https://")
	case u.Host == "":
		return "", errors.New("has no host")
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", errors.New("must be a plain base URL, without user, query or fragment")
	}
	return strings.TrimRight(u.String(), "/"), nil
}

func generateSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

func defaultOf(env string) string {
	for _, v := range Vars {
		if v.Env == env {
			return v.Default
		}
	}
	panic("config: no setting " + env)
}

// PrintUsage writes one line per setting: flag, variable, default, meaning.
// README.md's table says the same (see markdownTable).
func PrintUsage(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  FLAG\tVARIABLE\tDEFAULT\tMEANING")
	for _, v := range Vars {
		fmt.Fprintf(tw, "  --%s\t%s\t%s\t%s\n", v.Flag, v.Env, plain(v.defaultCell("(unset)")), plain(v.Usage))
	}
	tw.Flush()
}

// markdownTable is the table of settings of README.md, between the
// comments readmeBegin and readmeEnd; "go test ./internal/config -update"
// writes it there.
func markdownTable() string {
	var b strings.Builder
	b.WriteString("| variable | flag | default | meaning |\n| --- | --- | --- | --- |\n")
	for _, v := range Vars {
		fmt.Fprintf(&b, "| `%s` | `--%s` | %s | %s |\n", v.Env, v.Flag, cell(v.defaultCell("unset")), cell(v.Usage))
	}
	return b.String()
}

// defaultCell is the default as a person would type it (markdown), or
// unset.
func (v Var) defaultCell(unset string) string {
	switch {
	case v.Default == "" && v.DefaultNote == "":
		return unset
	case v.Default == "":
		return v.DefaultNote
	case v.DefaultNote == "":
		return "`" + v.Default + "`"
	}
	return "`" + v.Default + "` (" + v.DefaultNote + ")"
}

var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// plain is markdown as a terminal shows it: without the quotes of code,
// and a link as its text.
func plain(md string) string {
	return strings.ReplaceAll(markdownLink.ReplaceAllString(md, "$1"), "`", "")
}

// cell escapes the | of markdown in a table's cell.
func cell(md string) string { return strings.ReplaceAll(md, "|", `\|`) }

// LoadDatabase reads only DATABASE_URL, for the commands that need nothing
// else (seed, migrate): flagValue, when not empty, beats the environment,
// which beats the default.
func LoadDatabase(flagValue string, getenv func(string) string) (Database, error) {
	v, src := flagValue, "flag --database-url"
	if v == "" {
		v, src = getenv("DATABASE_URL"), "DATABASE_URL"
	}
	if v == "" {
		v, src = defaultOf("DATABASE_URL"), "DATABASE_URL default"
	}
	db, err := ParseDatabaseURL(v)
	if err != nil {
		return Database{}, fmt.Errorf("%s=%q: %w", src, redactUserinfo(v), err)
	}
	return db, nil
}

// hostOf is the host name of an http(s) URL, "localhost" when it has none.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return "localhost"
	}
	return u.Hostname()
}
