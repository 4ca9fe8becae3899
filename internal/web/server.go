// Package web is boxoffice's HTTP face: an Echo v4 server that renders the
// templ views, keeps the visitor's session, and turns domain errors into
// pages. Handlers parse, call the booking service and render; the rules live
// in the domain.
package web

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/internal/payment"
)

// Options configure a Server.
type Options struct {
	PublicURL string       // base URL; https → Secure cookies
	HoldRate  int          // holds per session per minute (per address: ten times that); 0 disables
	Sessions  scs.Store    // shared by all processes (github.com/alexedwards/scs/v2); nil means in memory
	Logger    *slog.Logger // nil means slog.Default()

	// Payments is the payment provider (SPEC §6, §9): Pay sends the
	// browser to its checkout and its CallbackPath verifies its events. A
	// provider that hosts its checkout in this app (the sandbox) gets its
	// pages mounted. Nil answers Pay and callbacks 503.
	Payments payment.Provider
	// CheckoutOrigins are the provider's checkout origins
	// (https://checkout.stripe.com) that Pay's form post is redirected to:
	// the CSP's form-action allows them besides 'self'.
	CheckoutOrigins []string
	// HoldEnded, when set, is called after a visitor ended a hold in this
	// process (Back), so that its checkout at the provider is closed soon
	// (Service.CloseEndedCheckouts). It must not block.
	HoldEnded func()

	// Location is the time zone times are shown in; nil means time.Local.
	Location *time.Location
	// ReportWeekStart is the first day of a report week
	// (REPORT_WEEK_START, default Friday; the zero value is Sunday).
	ReportWeekStart time.Weekday
	// DefaultLang is the language of a visitor who asks for none of
	// boxoffice's (DEFAULT_LANG); empty means English.
	DefaultLang i18n.Lang
	// Limiter counts holds for HoldRate and admin sign-in attempts; nil
	// means a limiter in this process. Pass one backed by the shared
	// database to make limits hold across processes.
	Limiter Limiter
	// TrustedProxies are the proxies whose X-Forwarded-For is believed when
	// finding the client's address, which the per-address limits count by
	// (IPv6 by /64). Nil means the loopback, link-local and private ranges;
	// empty trusts none.
	TrustedProxies []netip.Prefix
	// RequestTimeout bounds each request's work (static files excepted): a
	// request still waiting on the database then gets 503 with Retry-After.
	// 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// MetricsToken, when set, is the bearer token /metrics needs; unset,
	// /metrics answers loopback clients only (METRICS_TOKEN).
	MetricsToken string
	// SessionIdle ends a session after this long without a request (the
	// deadline moves at most every few minutes); 0 means
	// DefaultSessionIdle.
	SessionIdle time.Duration
	// AdminIdle ends an admin's or staff member's session after this long
	// without a request; 0 means DefaultAdminIdle.
	AdminIdle time.Duration
	// SigningKey signs the CSRF tokens of visitors without a session; every
	// process must have the same (Service.SigningKey keeps it in the
	// database). Nil means New asks the service for it.
	SigningKey []byte
	// PassKey signs the on-sales' passes and join cookies (SPEC §18);
	// every process must have the same (Service.PassKey keeps it in the
	// database). Nil means New asks the service for it.
	PassKey []byte
	// AdminPasswordCost is bcrypt's work factor for admin passwords; 0 means
	// bcrypt's default. Tests lower it.
	AdminPasswordCost int
}

// Server is the web application. It keeps no state about visitors itself:
// sessions live in Options.Sessions, everything else in the booking store.
type Server struct {
	svc      *booking.Service
	opts     Options
	log      *slog.Logger
	loc      *time.Location
	echo     *echo.Echo
	sessions *sessionManager
	assets   *assets
	metrics  *metrics
	limiter  Limiter
	admins   *booking.Admins
	catalog  *booking.Catalog
	// adminIdle is Options.AdminIdle.
	adminIdle time.Duration
	timeout   time.Duration
	sandbox   bool // payments go through the sandbox: pages say no real money moves
	// publicURL is PUBLIC_URL without its trailing slash: the provider's
	// checkout sends the browser back to it.
	publicURL string
	csp       string // the Content-Security-Policy of every response
	// crossOrigin refuses state-changing requests from other sites (csrf).
	crossOrigin *http.CrossOriginProtection
	zones       zoneCache
	grids       *gridCache
	watchers    *watcherMaps
	// onsales is this process's snapshot of the open on-sales (SPEC §18);
	// passKey signs their passes and join cookies; joinLimiter counts
	// joins per address in this process.
	onsales     *onSaleCache
	passKey     []byte
	joinLimiter *memoryLimiter
}

// zoneCache loads each IANA zone once: time.LoadLocation reads and parses
// the zone's data on every call.
type zoneCache struct{ m sync.Map }

func (z *zoneCache) load(name string) (*time.Location, error) {
	if name == "" {
		return nil, errors.New("no time zone")
	}
	if loc, ok := z.m.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	z.m.Store(name, loc)
	return loc, nil
}

// New returns a Server for svc with every route registered.
func New(svc *booking.Service, opts Options) *Server {
	s := &Server{svc: svc, opts: opts, log: opts.Logger, loc: opts.Location, limiter: opts.Limiter, grids: newGridCache(), watchers: newWatcherMaps()}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.loc == nil {
		s.loc = time.Local
	}
	s.sandbox = opts.Payments != nil && opts.Payments.Name() == "sandbox"
	s.publicURL = strings.TrimRight(opts.PublicURL, "/")
	s.csp = contentSecurityPolicy(opts.CheckoutOrigins)
	s.timeout = opts.RequestTimeout
	if s.timeout <= 0 {
		s.timeout = DefaultRequestTimeout
	}
	if s.limiter == nil {
		// On the service's clock, so that tests can move past a window.
		s.limiter = newMemoryLimiter(func() time.Time { return svc.Now().Now })
	}
	s.admins = svc.NewAdmins(opts.AdminPasswordCost)
	s.catalog = svc.Catalog()
	s.adminIdle = opts.AdminIdle
	if s.adminIdle <= 0 {
		s.adminIdle = DefaultAdminIdle
	}
	idle := opts.SessionIdle
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	key := opts.SigningKey
	if key == nil {
		var err error
		if key, err = loadSigningKey(svc); err != nil {
			// Only tests leave SigningKey unset (serve loads it and stops
			// when it cannot): a key of this process alone still works
			// for one process.
			s.log.Error("no shared signing key: CSRF tokens of visitors without a session work in this process only", "err", err)
			key = make([]byte, 32)
			_, _ = rand.Read(key)
		}
	}
	s.onsales = newOnSaleCache(svc)
	s.joinLimiter = newMemoryLimiter(func() time.Time { return svc.Now().Now })
	s.passKey = opts.PassKey
	if s.passKey == nil {
		var err error
		if s.passKey, err = loadPassKey(svc); err != nil {
			s.log.Error("no shared pass key: on-sale passes work in this process only", "err", err)
			s.passKey = make([]byte, 32)
			_, _ = rand.Read(s.passKey)
		}
	}
	s.sessions = newSessionManager(opts.Sessions, secureCookies(opts.PublicURL), idle, key,
		func() time.Time { return svc.Now().Now }, s.log)
	s.crossOrigin = http.NewCrossOriginProtection()
	if origin := originOf(opts.PublicURL); origin != "" {
		// Behind a proxy that rewrites Host, the browser's Origin is
		// PUBLIC_URL's, not the Host the server sees.
		if err := s.crossOrigin.AddTrustedOrigin(origin); err != nil {
			s.log.Warn("PUBLIC_URL is no origin to trust", "err", err)
		}
	}
	s.assets = newAssets()
	s.metrics = newMetrics()

	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	// Behind a load balancer the client is the nearest untrusted address in
	// X-Forwarded-For.
	e.IPExtractor = ipExtractor(opts.TrustedProxies)
	s.echo = e
	s.routes()
	return s
}

// Handler is the server as an http.Handler, ready for http.Server.
func (s *Server) Handler() http.Handler { return s.echo }

// loadSigningKey asks svc for the shared signing key, for at most 10 s.
func loadSigningKey(svc *booking.Service) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return svc.SigningKey(ctx)
}

// loadPassKey asks svc for the on-sales' shared pass key, for at most 10 s.
func loadPassKey(svc *booking.Service) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return svc.PassKey(ctx)
}

// originOf is the origin (scheme://host[:port]) of an absolute URL, or "".
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func secureCookies(publicURL string) bool {
	u, err := url.Parse(publicURL)
	return err == nil && u.Scheme == "https"
}
