package config

import (
	"bytes"
	"errors"
	"flag"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func TestLoad(t *testing.T) {
	defaults := Config{
		Addr:                ":8080",
		Database:            Database{Driver: DriverSQLite, Source: "data/boxoffice.db", URL: "sqlite:data/boxoffice.db"},
		HoldTTL:             15 * time.Minute,
		MaxSeats:            10,
		BoxOfficeClose:      30 * time.Minute,
		PublicURL:           "http://localhost:8080",
		PublicURLDerived:    true,
		PaymentProvider:     "sandbox",
		SeedDemo:            true,
		HoldRate:            20,
		LogFormat:           "text",
		AdminIdle:           30 * time.Minute,
		SessionIdle:         24 * time.Hour,
		MailFrom:            "boxoffice <tickets@localhost>",
		MailLease:           2 * time.Minute,
		ReportWeekStart:     time.Friday,
		DefaultLang:         "en",
		TrustedProxies:      prefixes("127.0.0.0/8", "::1/128"),
		HoldSeatsPerAddress: 40,
		Retention:           90 * 24 * time.Hour,

		WebhookSecretGenerated: true,
	}
	with := func(change func(*Config)) Config {
		c := defaults
		change(&c)
		return c
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want Config
	}{
		{name: "defaults", want: defaults},
		{
			name: "environment",
			env: map[string]string{
				"ADDR": "127.0.0.1:9000", "DATABASE_URL": "mongodb://db1,db2/boxoffice?replicaSet=rs0",
				"HOLD_TTL": "90s", "MAX_SEATS": "6", "PAYMENT_WEBHOOK_SECRET": "whsec_test_0123456789", "PAYMENT_PROVIDER": "Sandbox",
				"PUBLIC_URL": "https://tickets.example.com/", "ADMIN_EMAIL": "admin@example.com",
				"ADMIN_PASSWORD": "correct horse", "ADMIN_IDLE": "2h", "SEED_DEMO": "false", "HOLD_RATE": "0", "LOG_FORMAT": "json",
				"SEAT_GAPS": "allow", "HOLD_SEATS_PER_ADDRESS": "0", "METRICS_TOKEN": "0123456789abcdef0123", "RETENTION": "720h",
				"SESSION_IDLE": "48h", "REPORT_WEEK_START": " Monday ", "DEFAULT_LANG": "ta", "SMTP_URL": "smtp://mailer:pw@smtp.example.com:587", "MAIL_FROM": "Tickets <tickets@example.com>",
				"TRUSTED_PROXIES": "203.0.113.0/24, 2001:db8:0:1::/64,198.51.100.7,2001:db8::9,10.1.2.3/8",
			},
			want: Config{
				Addr:     "127.0.0.1:9000",
				Database: Database{Driver: DriverMongo, Source: "mongodb://db1,db2/boxoffice?replicaSet=rs0", URL: "mongodb://db1,db2/boxoffice?replicaSet=rs0"},
				HoldTTL:  90 * time.Second, MaxSeats: 6, WebhookSecret: "whsec_test_0123456789", BoxOfficeClose: 30 * time.Minute,
				PublicURL: "https://tickets.example.com", AdminEmail: "admin@example.com", AdminPassword: "correct horse", AdminIdle: 2 * time.Hour,
				SessionIdle: 48 * time.Hour, SMTPURL: "smtp://mailer:pw@smtp.example.com:587", MailFrom: "Tickets <tickets@example.com>", MailLease: 2 * time.Minute,
				AllowGaps: true, HoldSeatsPerAddress: 0, MetricsToken: "0123456789abcdef0123", Retention: 720 * time.Hour,
				PaymentProvider: "sandbox", SeedDemo: false, HoldRate: 0, LogFormat: "json", ReportWeekStart: time.Monday, DefaultLang: "ta",
				TrustedProxies: prefixes("203.0.113.0/24", "2001:db8:0:1::/64", "198.51.100.7/32", "2001:db8::9/128", "10.0.0.0/8"),
			},
		},
		{
			name: "box office closes with late sales by default",
			env:  map[string]string{"SALES_CLOSE": "45m"},
			want: with(func(c *Config) { c.SalesClose, c.BoxOfficeClose = 45*time.Minute, 45*time.Minute }),
		},
		{
			name: "box office closes 15 minutes after the start",
			env:  map[string]string{"BOXOFFICE_CLOSE": "15m"},
			want: with(func(c *Config) { c.BoxOfficeClose = 15 * time.Minute }),
		},
		{
			name: "sales close before the start",
			env:  map[string]string{"SALES_CLOSE": "-30m"},
			want: with(func(c *Config) { c.SalesClose = -30 * time.Minute }),
		},
		{
			name: "report weeks from Thursday",
			args: []string{"--report-week-start", "THURSDAY"},
			want: with(func(c *Config) { c.ReportWeekStart = time.Thursday }),
		},
		{
			name: "trust no proxy",
			args: []string{"--trusted-proxies", "none"},
			want: with(func(c *Config) { c.TrustedProxies = []netip.Prefix{} }),
		},
		{
			name: "flag beats environment",
			args: []string{"--max-seats", "4", "-hold-ttl=2m", "--seed-demo=false"},
			env:  map[string]string{"MAX_SEATS": "8", "HOLD_TTL": "5m"},
			want: with(func(c *Config) { c.MaxSeats, c.HoldTTL, c.SeedDemo = 4, 2*time.Minute, false }),
		},
		{
			name: "bool flag alone",
			args: []string{"--seed-demo"},
			env:  map[string]string{"SEED_DEMO": "false"},
			want: defaults,
		},
		{
			// An empty flag is given, and beats the variable; for these
			// settings empty means unset.
			name: "explicitly empty flags",
			args: []string{"--admin-email=", "--admin-password=", "--smtp-url=", "--metrics-token=", "--mail-from="},
			env:  map[string]string{"ADMIN_EMAIL": "a@example.com", "ADMIN_PASSWORD": "long enough", "METRICS_TOKEN": "0123456789abcdef"},
			want: defaults,
		},
		{
			name: "empty variable counts as unset",
			env:  map[string]string{"MAX_SEATS": "", "HOLD_TTL": ""},
			want: defaults,
		},
		{
			name: "public URL follows the port",
			env:  map[string]string{"ADDR": ":3000"},
			want: with(func(c *Config) { c.Addr, c.PublicURL = ":3000", "http://localhost:3000" }),
		},
		{
			name: "sqlite with slashes",
			args: []string{"--database-url", "sqlite:///var/lib/boxoffice/db.sqlite"},
			want: with(func(c *Config) {
				c.Database = Database{Driver: DriverSQLite, Source: "/var/lib/boxoffice/db.sqlite", URL: "sqlite:///var/lib/boxoffice/db.sqlite"}
			}),
		},
		{
			name: "stripe",
			env: map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_live_abc", "STRIPE_WEBHOOK_SECRET": "whsec_abc",
				"PUBLIC_URL": "https://tickets.example.com", "STRIPE_PAYMENT_METHODS": "card, link", "REFUND_AUTOMATICALLY": "true",
				"STRIPE_API_BASE": "http://127.0.0.1:12111/", "SMTP_URL": "smtps://smtp.example.com"},
			want: with(func(c *Config) {
				c.PaymentProvider, c.PublicURL, c.RefundAutomatically = "stripe", "https://tickets.example.com", true
				c.SMTPURL, c.MailFrom = "smtps://smtp.example.com", "boxoffice <tickets@tickets.example.com>"
				c.WebhookSecretGenerated, c.PublicURLDerived = false, false
				c.Stripe = Stripe{SecretKey: "sk_live_abc", WebhookSecret: "whsec_abc", APIBase: "http://127.0.0.1:12111", PaymentMethods: []string{"card", "link"}}
			}),
		},
		{
			// A Checkout Session that expires before its hold ends that
			// session only (SPEC §9): HOLD_TTL has no cap of Stripe's.
			name: "stripe with a hold longer than a session",
			env:  map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_abc", "STRIPE_WEBHOOK_SECRET": "whsec_abc", "HOLD_TTL": "45m"},
			want: with(func(c *Config) {
				c.PaymentProvider, c.HoldTTL, c.WebhookSecretGenerated = "stripe", 45*time.Minute, false
				c.Stripe = Stripe{SecretKey: "sk_test_abc", WebhookSecret: "whsec_abc", APIBase: "https://api.stripe.com", PaymentMethods: []string{"card"}}
			}),
		},
		{
			name: "mongodb+srv",
			env:  map[string]string{"DATABASE_URL": "mongodb+srv://cluster0.example.net/boxoffice"},
			want: with(func(c *Config) {
				c.Database = Database{Driver: DriverMongo, Source: "mongodb+srv://cluster0.example.net/boxoffice", URL: "mongodb+srv://cluster0.example.net/boxoffice"}
			}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Load(tt.args, env(tt.env))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Config{}, "WebhookSecret"), cmpopts.EquateComparable(netip.Prefix{})); diff != "" {
				t.Errorf("Load (-want +got):\n%s", diff)
			}
			if !tt.want.WebhookSecretGenerated && got.WebhookSecret != tt.want.WebhookSecret {
				t.Errorf("WebhookSecret = %q, want %q", got.WebhookSecret, tt.want.WebhookSecret)
			}
		})
	}
}

func prefixes(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for i, p := range s {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}

func TestLoadGeneratesSecret(t *testing.T) {
	a, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !a.WebhookSecretGenerated || len(a.WebhookSecret) != 64 || strings.Trim(a.WebhookSecret, "0123456789abcdef") != "" {
		t.Errorf("generated secret = %q (generated=%v), want 64 hex digits", a.WebhookSecret, a.WebhookSecretGenerated)
	}
	if a.WebhookSecret == b.WebhookSecret {
		t.Errorf("two loads generated the same secret %q", a.WebhookSecret)
	}
}

func TestLoadInvalid(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want []string // substrings of the error
	}{
		{name: "bad duration", env: map[string]string{"HOLD_TTL": "15"}, want: []string{`HOLD_TTL="15"`, "not a duration"}},
		{name: "zero duration", env: map[string]string{"HOLD_TTL": "0s"}, want: []string{"between 1s and 24h"}},
		{name: "bad duration by flag", args: []string{"--hold-ttl=soon"}, want: []string{`flag --hold-ttl="soon"`}},
		{name: "max seats zero", env: map[string]string{"MAX_SEATS": "0"}, want: []string{`MAX_SEATS="0": must be from 1 to 50`}},
		{name: "max seats text", env: map[string]string{"MAX_SEATS": "ten"}, want: []string{"not a whole number"}},
		{name: "unknown scheme", env: map[string]string{"DATABASE_URL": "postgres://localhost/db"}, want: []string{`unknown scheme "postgres"`}},
		{name: "no scheme", env: map[string]string{"DATABASE_URL": "boxoffice.db"}, want: []string{"want sqlite:PATH"}},
		{name: "empty sqlite path", env: map[string]string{"DATABASE_URL": "sqlite:"}, want: []string{"needs a file path"}},
		{name: "mongodb without host", env: map[string]string{"DATABASE_URL": "mongodb:boxoffice"}, want: []string{"not a valid MongoDB URI"}},
		{name: "public URL ftp", env: map[string]string{"PUBLIC_URL": "ftp://example.com"}, want: []string{"must start with http:// or https://"}},
		{name: "public URL no scheme", env: map[string]string{"PUBLIC_URL": "example.com"}, want: []string{"must start with http://"}},
		{name: "public URL with query", env: map[string]string{"PUBLIC_URL": "https://example.com/?a=1"}, want: []string{"plain base URL"}},
		{name: "password without email", env: map[string]string{"ADMIN_PASSWORD": "long enough"}, want: []string{"ADMIN_PASSWORD is set but ADMIN_EMAIL is not"}},
		{name: "email without password", env: map[string]string{"ADMIN_EMAIL": "a@example.com"}, want: []string{"ADMIN_EMAIL is set but ADMIN_PASSWORD is not"}},
		{name: "short password", env: map[string]string{"ADMIN_EMAIL": "a@example.com", "ADMIN_PASSWORD": "short"}, want: []string{"at least 8 characters"}},
		{name: "not an email", env: map[string]string{"ADMIN_EMAIL": "admin", "ADMIN_PASSWORD": "long enough"}, want: []string{"not an email address"}},
		{name: "seed demo", env: map[string]string{"SEED_DEMO": "yes please"}, want: []string{"not a boolean"}},
		{name: "negative rate", env: map[string]string{"HOLD_RATE": "-1"}, want: []string{"must be from 0 (no limit) to 100000"}},
		{name: "huge rate", env: map[string]string{"HOLD_RATE": "922337203685477581"}, want: []string{`HOLD_RATE="922337203685477581": must be from 0 (no limit) to 100000`}},
		{name: "max seats huge", env: map[string]string{"MAX_SEATS": "51"}, want: []string{`MAX_SEATS="51": must be from 1 to 50`}},
		{
			name: "https without a webhook secret",
			env:  map[string]string{"PUBLIC_URL": "https://tickets.example.com", "PAYMENT_PROVIDER": "sandbox"},
			want: []string{"PUBLIC_URL is https, so PAYMENT_WEBHOOK_SECRET must be set"},
		},
		{
			name: "https with the sandbox by default",
			env:  map[string]string{"PUBLIC_URL": "https://tickets.example.com", "PAYMENT_WEBHOOK_SECRET": "0123456789abcdef"},
			want: []string{"PUBLIC_URL is https but no PAYMENT_PROVIDER is set", "PAYMENT_PROVIDER=stripe, or PAYMENT_PROVIDER=sandbox"},
		},
		{name: "unknown provider", env: map[string]string{"PAYMENT_PROVIDER": "paypal"}, want: []string{`PAYMENT_PROVIDER="paypal": unknown payment provider; use sandbox or stripe`}},
		{
			name: "stripe without keys",
			env:  map[string]string{"PAYMENT_PROVIDER": "stripe"},
			want: []string{"STRIPE_SECRET_KEY is not set: it is required with PAYMENT_PROVIDER=stripe", "STRIPE_WEBHOOK_SECRET is not set"},
		},
		{
			name: "stripe keys of the wrong shape",
			env:  map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "pk_test_publishable", "STRIPE_WEBHOOK_SECRET": "secret"},
			want: []string{"STRIPE_SECRET_KEY: not a Stripe API key", "STRIPE_WEBHOOK_SECRET: not a webhook signing secret; it must start with whsec_"},
		},
		{
			name: "stripe live key over http",
			env:  map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_live_abc", "STRIPE_WEBHOOK_SECRET": "whsec_abc"},
			want: []string{"STRIPE_SECRET_KEY is a live key, so PUBLIC_URL must be https"},
		},
		{
			name: "stripe API base and methods",
			env: map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_abc", "STRIPE_WEBHOOK_SECRET": "whsec_abc",
				"STRIPE_API_BASE": "localhost:12111", "STRIPE_PAYMENT_METHODS": "card,Klarna!"},
			want: []string{`STRIPE_API_BASE="localhost:12111": must be an absolute http(s) URL`, `"Klarna!" is not a payment method type`},
		},
		{name: "report week start", env: map[string]string{"REPORT_WEEK_START": "fri"}, want: []string{`REPORT_WEEK_START="fri": must be an English weekday name`}},
		{name: "default language", env: map[string]string{"DEFAULT_LANG": "fr"}, want: []string{`DEFAULT_LANG="fr": must be en, hi or ta`}},
		{name: "sales close", env: map[string]string{"SALES_CLOSE": "soon"}, want: []string{`SALES_CLOSE="soon": not a duration`}},
		{name: "admin idle", env: map[string]string{"ADMIN_IDLE": "a while"}, want: []string{`ADMIN_IDLE="a while": not a duration`}},
		{name: "admin idle short", env: map[string]string{"ADMIN_IDLE": "30s"}, want: []string{`ADMIN_IDLE="30s": must be from 1m to 24h`}},
		{name: "session idle short", env: map[string]string{"SESSION_IDLE": "1m"}, want: []string{`SESSION_IDLE="1m": must be from 10m to 720h`}},
		{name: "smtp url", env: map[string]string{"SMTP_URL": "http://smtp.example.com"}, want: []string{"SMTP_URL: "}},
		{name: "https without smtp", env: map[string]string{"PUBLIC_URL": "https://tickets.example.com", "PAYMENT_PROVIDER": "sandbox", "PAYMENT_WEBHOOK_SECRET": "0123456789abcdef"}, want: []string{"SMTP_URL is not set"}},
		{name: "seat cap below max seats", env: map[string]string{"HOLD_SEATS_PER_ADDRESS": "6"}, want: []string{`HOLD_SEATS_PER_ADDRESS="6": must be 0 (no cap) or from MAX_SEATS (10)`}},
		{name: "short metrics token", env: map[string]string{"METRICS_TOKEN": "short"}, want: []string{"METRICS_TOKEN: must be at least 16 characters"}},
		{name: "seat gaps", env: map[string]string{"SEAT_GAPS": "sometimes"}, want: []string{`SEAT_GAPS="sometimes": must be refuse or allow`}},
		{name: "short retention", env: map[string]string{"RETENTION": "1h"}, want: []string{`RETENTION="1h": must be at least 24h`}},
		{name: "mail lease", env: map[string]string{"MAIL_LEASE": "1s"}, want: []string{`MAIL_LEASE="1s": must be from 5s to 1h`}},
		{name: "mail from", env: map[string]string{"MAIL_FROM": "tickets at example"}, want: []string{`MAIL_FROM="tickets at example": not an email address`}},
		{name: "box office closes before sales", env: map[string]string{"SALES_CLOSE": "10m", "BOXOFFICE_CLOSE": "5m"}, want: []string{"BOXOFFICE_CLOSE=\"5m\": before SALES_CLOSE (10m0s)"}},
		{name: "sales close far", env: map[string]string{"SALES_CLOSE": "-200h"}, want: []string{"must be from -168h"}},
		{name: "refund automatically", env: map[string]string{"REFUND_AUTOMATICALLY": "sometimes"}, want: []string{`REFUND_AUTOMATICALLY="sometimes": not a boolean`}},
		{
			name: "short webhook secret",
			env:  map[string]string{"PAYMENT_WEBHOOK_SECRET": "hunter2"},
			want: []string{"PAYMENT_WEBHOOK_SECRET: must be at least 16 characters"},
		},
		{name: "explicitly empty webhook secret", args: []string{"--payment-webhook-secret="}, want: []string{"flag --payment-webhook-secret: must be at least 16 characters"}},
		{name: "bad addr", env: map[string]string{"ADDR": "8080"}, want: []string{"not a listen address"}},
		{name: "bad port", env: map[string]string{"ADDR": ":http-alt"}, want: []string{"port must be a number"}},
		{name: "log format", env: map[string]string{"LOG_FORMAT": "xml"}, want: []string{"text or json"}},
		{
			name: "trusted proxies not CIDRs",
			env:  map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8,lb.internal,10.0.0.0/33"},
			want: []string{`TRUSTED_PROXIES="10.0.0.0/8,lb.internal,10.0.0.0/33": "lb.internal", "10.0.0.0/33": not a CIDR`},
		},
		{name: "trusted proxies only commas", env: map[string]string{"TRUSTED_PROXIES": ", ,"}, want: []string{`names no proxy; write "none"`}},
		{name: "unknown flag", args: []string{"--colour"}, want: []string{"flag provided but not defined: -colour"}},
		{name: "stray argument", args: []string{"now"}, want: []string{`unexpected argument "now"`}},
		{
			name: "every error at once",
			env:  map[string]string{"HOLD_TTL": "x", "MAX_SEATS": "0", "PUBLIC_URL": "localhost"},
			want: []string{"HOLD_TTL", "MAX_SEATS", "PUBLIC_URL"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.args, env(tt.env))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadHelp(t *testing.T) {
	_, err := Load([]string{"-h"}, env(nil))
	if !errors.Is(err, flag.ErrHelp) {
		t.Errorf("Load(-h) = %v, want flag.ErrHelp", err)
	}
}

func TestPrintUsageListsEveryVariable(t *testing.T) {
	var b bytes.Buffer
	PrintUsage(&b)
	for _, v := range Vars {
		if !strings.Contains(b.String(), v.Env) || !strings.Contains(b.String(), "--"+v.Flag) {
			t.Errorf("usage lacks %s / --%s:\n%s", v.Env, v.Flag, b.String())
		}
	}
}

func TestLoadDatabase(t *testing.T) {
	tests := []struct {
		name, flag string
		env        map[string]string
		want       string
	}{
		{name: "default", want: "data/boxoffice.db"},
		{name: "environment", env: map[string]string{"DATABASE_URL": "sqlite:env.db"}, want: "env.db"},
		{name: "flag beats environment", flag: "sqlite:flag.db", env: map[string]string{"DATABASE_URL": "sqlite:env.db"}, want: "flag.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := LoadDatabase(tt.flag, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if db.Driver != DriverSQLite || db.Source != tt.want {
				t.Errorf("LoadDatabase = %+v, want sqlite %q", db, tt.want)
			}
		})
	}
	if _, err := LoadDatabase("mysql://x", env(nil)); err == nil || !strings.Contains(err.Error(), "flag --database-url") {
		t.Errorf("LoadDatabase(mysql) = %v, want an error naming the flag", err)
	}
}

// A setting's error names the value, but never a password in it, even when
// the URL doesn't parse.
func TestLoadErrorsHidePasswords(t *testing.T) {
	tests := map[string]map[string]string{
		"bad mongodb port": {"DATABASE_URL": "mongodb://admin:S3cretPw@db:27x17/box"},
		"unknown scheme":   {"DATABASE_URL": "postgres://admin:S3cretPw@db/box"},
		"password with @":  {"DATABASE_URL": "mongodb://admin:S3c@retPw@db:27x17/box"},
		"public URL user":  {"PUBLIC_URL": "https://admin:S3cretPw@example.com"},
		"short secret":     {"PAYMENT_WEBHOOK_SECRET": "S3cretPw"},
		"smtp scheme":      {"SMTP_URL": "ftp://mailer:S3cretPw@smtp.example.com"},
		"smtp port":        {"SMTP_URL": "smtp://mailer:S3cretPw@smtp.example.com:5x87"},
	}
	for name, e := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Load(nil, env(e))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			if strings.Contains(err.Error(), "S3c") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
	_, err := LoadDatabase("mongodb://admin:S3cretPw@db:27x17/box", env(nil))
	if err == nil || strings.Contains(err.Error(), "S3cretPw") || !strings.Contains(err.Error(), "admin:xxxxx@db:27x17") {
		t.Errorf("LoadDatabase error = %v, want the URL with its password masked", err)
	}
}

func TestDatabaseRedacted(t *testing.T) {
	db, err := ParseDatabaseURL("mongodb://app:s3cret@db1:27017/boxoffice?replicaSet=rs0")
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Redacted(); strings.Contains(got, "s3cret") || !strings.Contains(got, "db1:27017") {
		t.Errorf("Redacted() = %q", got)
	}
}
