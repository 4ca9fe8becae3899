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
	"net"
	netmail "net/mail"
	"net/netip"
	"net/url"
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

// Var describes one setting: its environment variable, its flag of
// "boxoffice serve", its default as a person would type it and its meaning.
type Var struct {
	Env     string
	Flag    string
	Default string
	Usage   string
	isBool  bool
}

// Vars lists every setting in the order "boxoffice -h" shows them.
var Vars = []Var{
	{Env: "ADDR", Flag: "addr", Default: ":8080", Usage: "listen address"},
	{Env: "DATABASE_URL", Flag: "database-url", Default: "sqlite:data/boxoffice.db", Usage: "sqlite:PATH or a mongodb:// / mongodb+srv:// URI"},
	{Env: "HOLD_TTL", Flag: "hold-ttl", Default: "15m", Usage: "how long a lock protects a seat (Go duration)"},
	{Env: "MAX_SEATS", Flag: "max-seats", Default: "10", Usage: "most seats in one hold, at most 50"},
	{Env: "SALES_CLOSE", Flag: "sales-close", Default: "0s", Usage: "when sales of a show close, relative to its start: -30m is half an hour before, 10m ten minutes after (from -168h to 24h)"},
	{Env: "PAYMENT_WEBHOOK_SECRET", Flag: "payment-webhook-secret", Default: "", Usage: "HMAC key for payment callbacks, at least 16 characters (unset: generated and printed at start; required when PUBLIC_URL is https)"},
	{Env: "PUBLIC_URL", Flag: "public-url", Default: "http://localhost:8080", Usage: "base URL the payment provider calls back (unset: http://localhost:PORT of ADDR)"},
	{Env: "PAYMENT_PROVIDER", Flag: "payment-provider", Default: "sandbox", Usage: "payment provider: sandbox (a built-in stand-in for a hosted checkout; refused when PUBLIC_URL is https unless set explicitly) or stripe"},
	{Env: "STRIPE_SECRET_KEY", Flag: "stripe-secret-key", Default: "", Usage: "Stripe API key, sk_test_…, sk_live_… or rk_… (live keys need an https PUBLIC_URL); required with stripe"},
	{Env: "STRIPE_WEBHOOK_SECRET", Flag: "stripe-webhook-secret", Default: "", Usage: "signing secret of the Stripe webhook endpoint, whsec_…; required with stripe"},
	{Env: "STRIPE_API_BASE", Flag: "stripe-api-base", Default: payment.DefaultStripeAPIBase, Usage: "base URL of Stripe's API (tests point it at stripe-mock)"},
	{Env: "STRIPE_PAYMENT_METHODS", Flag: "stripe-payment-methods", Default: "card", Usage: "Checkout's payment method types, comma-separated; methods that settle days later make late payments, refunded when the seats are gone"},
	{Env: "REFUND_AUTOMATICALLY", Flag: "refund-automatically", Default: "false", Usage: "refund a booking through the provider as soon as it is due a refund, instead of from the admin's queue", isBool: true},
	{Env: "ADMIN_EMAIL", Flag: "admin-email", Default: "", Usage: "admin account created or updated at start (with ADMIN_PASSWORD)"},
	{Env: "ADMIN_PASSWORD", Flag: "admin-password", Default: "", Usage: "password of ADMIN_EMAIL, at least 8 characters"},
	{Env: "ADMIN_IDLE", Flag: "admin-idle", Default: "30m", Usage: "an admin or staff session ends after this long without a request (from 1m to 24h)"},
	{Env: "SESSION_IDLE", Flag: "session-idle", Default: "24h", Usage: "a moviegoer's session ends after this long without a request (from 10m to 720h); bookings never depend on it"},
	{Env: "SMTP_URL", Flag: "smtp-url", Default: "", Usage: "where mail goes: smtp://user:pass@host:587 (STARTTLS required, except to a loopback host) or smtps://user:pass@host:465; unset: each mail is written to the log, refused when PUBLIC_URL is https"},
	{Env: "MAIL_FROM", Flag: "mail-from", Default: "", Usage: "From of every mail, an address or Name <address> (unset: boxoffice <tickets@HOST of PUBLIC_URL>)"},
	{Env: "MAIL_LEASE", Flag: "mail-lease", Default: "2m", Usage: "how long a process keeps a mail it is sending before another process may send it (from 5s to 1h): longer than an SMTP send takes"},
	{Env: "SEED_DEMO", Flag: "seed-demo", Default: "true", Usage: "seed a small demo catalog when the database is empty", isBool: true},
	{Env: "HOLD_RATE", Flag: "hold-rate", Default: "20", Usage: "holds per session per minute (per address: ten times that), at most 100000; 0 disables"},
	{Env: "HOLD_SEATS_PER_ADDRESS", Flag: "hold-seats-per-address", Default: "40", Usage: "most seats held at once from one client address in one show, across its sessions and processes: 0 (no cap) or at least MAX_SEATS"},
	{Env: "METRICS_TOKEN", Flag: "metrics-token", Default: "", Usage: "bearer token /metrics and /debug/pprof/ need (Authorization: Bearer TOKEN); unset, they answer loopback clients only"},
	{Env: "SEAT_GAPS", Flag: "seat-gaps", Default: "refuse", Usage: "refuse: a hold that would leave a single seat alone (between taken seats, an aisle or the row's end) is refused with the nearest choice that does not; allow: no such check"},
	{Env: "RETENTION", Flag: "retention", Default: "2160h", Usage: "how long history (sessions, ended holds, callbacks, events, sent mail) is kept before it is pruned, from 24h; anything a booking or payment needs is kept"},
	{Env: "LOG_FORMAT", Flag: "log-format", Default: "text", Usage: "log format: text or json"},
	{Env: "TRUSTED_PROXIES", Flag: "trusted-proxies", Default: DefaultTrustedProxies, Usage: "proxies whose X-Forwarded-For is believed when finding a client's address (per-address limits; IPv6 counted by /64): comma-separated CIDRs or addresses, or none"},
}

// DefaultTrustedProxies trusts the loopback only: a proxy on the same host.
// Trusting more by default would let any client behind a private hop name
// its own address in X-Forwarded-For; a load balancer's network is added
// by whoever deploys one (deploy/compose.yaml does).
const DefaultTrustedProxies = "127.0.0.0/8,::1/128"

// setting is one Var's flag: it remembers whether it was given, since an
// explicitly empty flag must still beat the environment.
type setting struct {
	value  string
	given  bool
	isBool bool
}

func (s *setting) String() string { return s.value }

func (s *setting) Set(v string) error {
	s.value, s.given = v, true
	return nil
}

// IsBoolFlag lets "--seed-demo" stand for "--seed-demo=true".
func (s *setting) IsBoolFlag() bool { return s.isBool }

// Load builds the Config from args (the flags after "serve") and getenv. A
// flag beats its environment variable, which beats the default; an empty
// variable counts as unset. Every invalid setting is reported, not only the
// first. With -h it returns an error wrapping flag.ErrHelp.
func Load(args []string, getenv func(string) string) (Config, error) {
	fs := flag.NewFlagSet("boxoffice serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the caller prints usage and errors its own way
	settings := make(map[string]*setting, len(Vars))
	for _, v := range Vars {
		s := &setting{isBool: v.isBool}
		settings[v.Env] = s
		fs.Var(s, v.Flag, v.Usage)
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}

	// lookup returns a setting's raw value and where it came from, for
	// error messages that point at the right place to fix.
	lookup := func(env string) (value, source string, given bool) {
		if s := settings[env]; s.given {
			return s.value, "flag --" + flagOf(env), true
		}
		if v := getenv(env); v != "" {
			return v, env, true
		}
		return defaultOf(env), env + " default", false
	}

	var c Config
	var errs []error
	// bad reports a setting; a password in a URL never reaches the message.
	bad := func(source, value, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s=%q: %s", source, redactUserinfo(value), fmt.Sprintf(format, args...)))
	}

	v, src, _ := lookup("ADDR")
	port, err := parseAddr(v)
	if err != nil {
		bad(src, v, "%v", err)
	}
	c.Addr = v

	v, src, _ = lookup("DATABASE_URL")
	if c.Database, err = ParseDatabaseURL(v); err != nil {
		bad(src, v, "%v", err)
	}

	v, src, _ = lookup("HOLD_TTL")
	if c.HoldTTL, err = time.ParseDuration(v); err != nil {
		bad(src, v, "not a duration; write it like 15m, 90s or 1h30m")
	} else if c.HoldTTL < time.Second || c.HoldTTL > 24*time.Hour {
		bad(src, v, "must be between 1s and 24h")
	}

	v, src, _ = lookup("SALES_CLOSE")
	if c.SalesClose, err = time.ParseDuration(v); err != nil {
		bad(src, v, "not a duration; write it like 0s, -30m or 15m")
	} else if c.SalesClose < -MaxSalesCloseBefore || c.SalesClose > MaxSalesCloseAfter {
		bad(src, v, "must be from -168h (a week before the start) to 24h")
	}

	v, src, _ = lookup("ADMIN_IDLE")
	if c.AdminIdle, err = time.ParseDuration(v); err != nil {
		bad(src, v, "not a duration; write it like 30m or 2h")
	} else if c.AdminIdle < MinAdminIdle || c.AdminIdle > MaxAdminIdle {
		bad(src, v, "must be from 1m to 24h")
	}

	v, src, _ = lookup("SESSION_IDLE")
	if c.SessionIdle, err = time.ParseDuration(v); err != nil {
		bad(src, v, "not a duration; write it like 24h or 90m")
	} else if c.SessionIdle < MinSessionIdle || c.SessionIdle > MaxSessionIdle {
		bad(src, v, "must be from 10m to 720h")
	}

	v, src, _ = lookup("MAX_SEATS")
	if c.MaxSeats, err = strconv.Atoi(v); err != nil {
		bad(src, v, "not a whole number")
	} else if c.MaxSeats < 1 || c.MaxSeats > MaxMaxSeats {
		bad(src, v, "must be from 1 to %d", MaxMaxSeats)
	}

	v, providerSrc, providerGiven := lookup("PAYMENT_PROVIDER")
	switch c.PaymentProvider = strings.ToLower(strings.TrimSpace(v)); c.PaymentProvider {
	case ProviderSandbox, ProviderStripe:
	default:
		bad(providerSrc, v, "unknown payment provider; use sandbox or stripe")
	}

	v, urlSrc, given := lookup("PUBLIC_URL")
	if !given && port != "" {
		v, c.PublicURLDerived = "http://localhost:"+port, true
	}
	if c.PublicURL, err = parsePublicURL(v); err != nil {
		bad(urlSrc, v, "%v", err)
	}
	https := strings.HasPrefix(c.PublicURL, "https://")

	// The sandbox's secret signs and checks its own callbacks; Stripe
	// has a secret of its own.
	v, secretSrc, given := lookup("PAYMENT_WEBHOOK_SECRET")
	switch {
	case c.PaymentProvider != ProviderSandbox:
	case !given:
		c.WebhookSecret, c.WebhookSecretGenerated = generateSecret(), true
		if https {
			// In production each process would make up its own secret,
			// and a callback reaching another process would be refused.
			errs = append(errs, fmt.Errorf("%s is https, so PAYMENT_WEBHOOK_SECRET must be set (the same in every process)", urlSrc))
		}
	case len(v) < MinWebhookSecret:
		// The value itself stays out of the message: it is a secret.
		errs = append(errs, fmt.Errorf("%s: must be at least %d characters; generate one with: openssl rand -hex 32",
			secretSrc, MinWebhookSecret))
	default:
		c.WebhookSecret = v
	}
	if c.PaymentProvider == ProviderSandbox && https && !providerGiven {
		// Anyone with a checkout link can mark a sandbox payment paid:
		// behind https that is a real site giving tickets away.
		errs = append(errs, fmt.Errorf("%s is https but no PAYMENT_PROVIDER is set: the default, sandbox, takes no money and anyone can mark its payments paid; "+
			"set PAYMENT_PROVIDER=stripe, or PAYMENT_PROVIDER=sandbox to run the sandbox behind https anyway", urlSrc))
	}
	if c.PaymentProvider == ProviderStripe {
		c.Stripe = loadStripe(lookup, c.PublicURL, https, bad, func(err error) { errs = append(errs, err) })
	}

	v, smtpSrc, _ := lookup("SMTP_URL")
	c.SMTPURL = strings.TrimSpace(v)
	switch {
	case c.SMTPURL != "":
		if err := mail.ParseURL(c.SMTPURL); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", smtpSrc, err)) // the value may hold a password
		}
	case https:
		errs = append(errs, fmt.Errorf("%s is https but SMTP_URL is not set: tickets would only be written to the log; "+
			"set SMTP_URL=smtp://user:pass@host:587", urlSrc))
	}
	v, src, _ = lookup("MAIL_LEASE")
	if c.MailLease, err = time.ParseDuration(v); err != nil {
		bad(src, v, "not a duration; write it like 2m or 30s")
	} else if c.MailLease < 5*time.Second || c.MailLease > time.Hour {
		bad(src, v, "must be from 5s to 1h")
	}
	v, src, _ = lookup("MAIL_FROM")
	if c.MailFrom = strings.TrimSpace(v); c.MailFrom == "" {
		c.MailFrom = "boxoffice <tickets@" + hostOf(c.PublicURL) + ">"
	} else if _, err := netmail.ParseAddress(c.MailFrom); err != nil {
		bad(src, v, "not an email address; write it like tickets@example.com or boxoffice <tickets@example.com>")
	}

	v, src, _ = lookup("REFUND_AUTOMATICALLY")
	if c.RefundAutomatically, err = strconv.ParseBool(v); err != nil {
		bad(src, v, "not a boolean; use true or false")
	}

	email, emailSrc, _ := lookup("ADMIN_EMAIL")
	password, passwordSrc, _ := lookup("ADMIN_PASSWORD")
	switch {
	case password != "" && email == "":
		errs = append(errs, fmt.Errorf("%s is set but ADMIN_EMAIL is not: set both to create the admin account", passwordSrc))
	case email != "" && password == "":
		errs = append(errs, fmt.Errorf("%s is set but ADMIN_PASSWORD is not: set both to create the admin account", emailSrc))
	case email != "" && !strings.Contains(strings.Trim(email, "@"), "@"):
		bad(emailSrc, email, "not an email address")
	case email != "" && len([]rune(password)) < 8:
		errs = append(errs, fmt.Errorf("%s: must be at least 8 characters", passwordSrc))
	}
	c.AdminEmail, c.AdminPassword = email, password

	v, src, _ = lookup("SEED_DEMO")
	if c.SeedDemo, err = strconv.ParseBool(v); err != nil {
		bad(src, v, "not a boolean; use true or false")
	}

	v, src, _ = lookup("HOLD_RATE")
	if c.HoldRate, err = strconv.Atoi(v); err != nil {
		bad(src, v, "not a whole number")
	} else if c.HoldRate < 0 || c.HoldRate > MaxHoldRate {
		bad(src, v, "must be from 0 (no limit) to %d", MaxHoldRate)
	}

	v, src, _ = lookup("HOLD_SEATS_PER_ADDRESS")
	if c.HoldSeatsPerAddress, err = strconv.Atoi(v); err != nil {
		bad(src, v, "not a whole number")
	} else if c.HoldSeatsPerAddress < 0 || (c.HoldSeatsPerAddress > 0 && c.HoldSeatsPerAddress < c.MaxSeats) || c.HoldSeatsPerAddress > MaxHoldSeatsPerAddress {
		bad(src, v, "must be 0 (no cap) or from MAX_SEATS (%d) to %d", c.MaxSeats, MaxHoldSeatsPerAddress)
	}

	v, src, _ = lookup("METRICS_TOKEN")
	if c.MetricsToken = strings.TrimSpace(v); c.MetricsToken != "" && len(c.MetricsToken) < MinMetricsToken {
		// The value stays out of the message: it is a secret.
		errs = append(errs, fmt.Errorf("%s: must be at least %d characters; generate one with: openssl rand -hex 32", src, MinMetricsToken))
	}

	v, src, _ = lookup("SEAT_GAPS")
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "refuse":
	case "allow":
		c.AllowGaps = true
	default:
		bad(src, v, "must be refuse or allow")
	}

	v, src, _ = lookup("RETENTION")
	if c.Retention, err = time.ParseDuration(v); err != nil {
		bad(src, v, "not a duration; write it like 2160h (90 days)")
	} else if c.Retention < MinRetention {
		bad(src, v, "must be at least 24h")
	}

	v, src, _ = lookup("LOG_FORMAT")
	switch v {
	case "text", "json":
		c.LogFormat = v
	default:
		bad(src, v, "must be text or json")
	}

	v, src, _ = lookup("TRUSTED_PROXIES")
	if c.TrustedProxies, err = ParseTrustedProxies(v); err != nil {
		bad(src, v, "%v", err)
	}

	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
}

// loadStripe reads and checks the Stripe settings: a key of the right
// shape, a whsec_ secret, an absolute API base, payment method names; a
// live key only behind an https PUBLIC_URL.
func loadStripe(lookup func(string) (string, string, bool), publicURL string, https bool,
	bad func(source, value, format string, args ...any), fail func(error)) Stripe {
	var st Stripe
	key, keySrc, _ := lookup("STRIPE_SECRET_KEY")
	switch {
	case key == "":
		fail(errors.New("STRIPE_SECRET_KEY is not set: it is required with PAYMENT_PROVIDER=stripe (Developers → API keys in the Stripe dashboard)"))
	case payment.CheckStripeKey(key) != nil:
		// A key stays out of the message, whatever it is.
		fail(fmt.Errorf("%s: not a Stripe API key; it must start with sk_test_, sk_live_, rk_test_ or rk_live_", keySrc))
	case payment.IsLiveStripeKey(key) && !https:
		fail(fmt.Errorf("%s is a live key, so PUBLIC_URL must be https (it is %s): real money needs a real site", keySrc, publicURL))
	default:
		st.SecretKey = key
	}
	secret, secretSrc, _ := lookup("STRIPE_WEBHOOK_SECRET")
	switch {
	case secret == "":
		fail(errors.New("STRIPE_WEBHOOK_SECRET is not set: it is required with PAYMENT_PROVIDER=stripe (the signing secret of the webhook endpoint, or of stripe listen)"))
	case payment.CheckStripeWebhookSecret(secret) != nil:
		fail(fmt.Errorf("%s: not a webhook signing secret; it must start with whsec_", secretSrc))
	default:
		st.WebhookSecret = secret
	}
	v, src, _ := lookup("STRIPE_API_BASE")
	if payment.CheckStripeAPIBase(v) != nil {
		bad(src, v, "must be an absolute http(s) URL")
	} else {
		st.APIBase = strings.TrimRight(v, "/")
	}
	v, src, _ = lookup("STRIPE_PAYMENT_METHODS")
	for _, m := range strings.Split(v, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		if !paymentMethodName(m) {
			bad(src, v, "%q is not a payment method type (lower case letters and _, e.g. card)", m)
			continue
		}
		st.PaymentMethods = append(st.PaymentMethods, m)
	}
	if len(st.PaymentMethods) == 0 {
		bad(src, v, "names no payment method; use card")
	}
	return st
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

func flagOf(env string) string {
	for _, v := range Vars {
		if v.Env == env {
			return v.Flag
		}
	}
	panic("config: no setting " + env)
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
func PrintUsage(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  FLAG\tVARIABLE\tDEFAULT\tMEANING")
	for _, v := range Vars {
		def := v.Default
		if def == "" {
			def = "(unset)"
		}
		fmt.Fprintf(tw, "  --%s\t%s\t%s\t%s\n", v.Flag, v.Env, def, v.Usage)
	}
	tw.Flush()
}

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
