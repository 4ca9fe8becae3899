package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
	"boxoffice/internal/config"
	"boxoffice/internal/i18n"
	"boxoffice/internal/payment"
	"boxoffice/internal/web"
	"boxoffice/static"
)

// shutdownGrace is how long in-flight requests get to finish after SIGTERM.
// It stays under the 10 seconds Docker and Kubernetes wait before SIGKILL.
const shutdownGrace = 8 * time.Second

// serve runs the web server until ctx is cancelled, then drains it.
func (m *Main) serve(ctx context.Context, args []string, getenv func(string) string) error {
	cfg, err := config.Load(args, getenv)
	if err != nil {
		return flagError(err)
	}
	logger := newLogger(cfg.LogFormat, m.Stderr)
	if err := static.Check(); err != nil {
		return err
	}

	db, err := openDatabase(ctx, cfg.Database, cfg.DefaultLang)
	if err != nil {
		return err
	}
	defer db.Close()
	logger.Info("database open", "url", cfg.Database.Redacted())

	// Listen before seeding, so a busy port fails at once; connections wait
	// in the backlog until Serve starts.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	if cfg.SeedDemo {
		if err := keepDemo(ctx, db.Store, time.Now(), logger); err != nil {
			return err
		}
	}
	if email, err := ensureAdmin(ctx, db.Store, cfg); err != nil {
		return err
	} else if email != "" {
		logger.Info("admin account ready", "email", email)
	}
	baseURL := listenURL(ln.Addr())
	if cfg.PublicURLDerived {
		// On port 0 the real port is only known now; the sandbox provider
		// must call back where we really listen.
		cfg.PublicURL = "http://localhost:" + portOf(ln.Addr())
	}

	payments, err := newPaymentProvider(cfg, db.Store, logger)
	if err != nil {
		return err
	}
	// Closed as serve returns, after the server has drained and the
	// workers (the sandbox's deliverer among them) have stopped: callbacks
	// still to deliver stay in the outbox, for the next process.
	defer payments.Close()
	if payments.Name() == "sandbox" {
		// Anyone with a checkout link can press Pay: fine for a demo or a
		// test, free tickets in production. Every page says so too.
		logger.Warn("SANDBOX PAYMENTS: PAYMENT_PROVIDER is sandbox, so no real money moves and anyone with a checkout link can mark it paid; "+
			"every page shows a \"Sandbox — no real money\" banner. Do not sell real tickets with it.", "public_url", cfg.PublicURL)
	}

	svc := booking.NewService(db.Store, nil, booking.Policy{
		HoldTTL: cfg.HoldTTL, MaxSeats: cfg.MaxSeats, SalesClose: cfg.SalesClose, BoxOfficeClose: cfg.BoxOfficeClose, RefundAutomatically: cfg.RefundAutomatically,
		MailLease: cfg.MailLease, SeatsPerAddress: cfg.HoldSeatsPerAddress, AllowGaps: cfg.AllowGaps, DefaultLang: cfg.DefaultLang,
	})
	svc.UsePayments(payments)
	// The background work; waited for as serve returns, before the
	// payments and the store close (deferred calls run last first).
	w := newWorkers(ctx)
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		w.stop(stopCtx)
	}()
	if cfg.SeedDemo {
		w.every(demoEvery, func(ctx context.Context) {
			if err := keepDemo(ctx, db.Store, time.Now(), logger); err != nil && ctx.Err() == nil {
				logger.Warn("keeping the demo catalog ahead", "err", err)
			}
		})
	}
	if skew, margin, ok, err := svc.ClockSkew(ctx); err != nil {
		logger.Warn("could not compare this host's clock with the database's", "err", err)
	} else if ok && booking.SkewTooLarge(skew, margin) {
		logger.Warn("this host's clock is far from the database's: the seat rule frees locks early or late in this process; synchronise it (NTP)",
			"skew", skew.String(), "margin", margin.String(), "max", booking.MaxClockSkew.String())
	}
	prune(w, db.Store, cfg.Retention, logger)
	if sandbox, ok := payments.(*payment.Sandbox); ok {
		// Pay and Decline record the callback in the outbox; this
		// process's deliverer posts it at once, or any process's later.
		sandbox.OnQueued(deliverCallbacks(w, sandbox, logger))
	}
	mailer, err := newMailer(cfg, logger)
	if err != nil {
		return err
	}
	sendMail(w, svc, mailer, cfg.PublicURL, logger)
	signingKey, err := svc.SigningKey(ctx)
	if err != nil {
		return fmt.Errorf("the shared signing key: %w", err)
	}
	// The on-sales' passes are checked by every process without a read
	// (SPEC §18): a key of this process alone would refuse its
	// neighbours' passes, so serve stops without the shared one.
	passKey, err := svc.PassKey(ctx)
	if err != nil {
		return fmt.Errorf("the shared pass key: %w", err)
	}
	app := web.New(svc, web.Options{
		SigningKey:      signingKey,
		PassKey:         passKey,
		PublicURL:       cfg.PublicURL,
		HoldRate:        cfg.HoldRate,
		Sessions:        db.Sessions,
		Payments:        payments,
		CheckoutOrigins: checkoutOrigins(payments.Name()),
		HoldEnded:       closeEndedCheckouts(w, svc, logger),
		Logger:          logger,
		Limiter:         db.Limiter,

		TrustedProxies: cfg.TrustedProxies,
		SessionIdle:    cfg.SessionIdle,
		MetricsToken:   cfg.MetricsToken,
		AdminIdle:      cfg.AdminIdle,

		ReportWeekStart: cfg.ReportWeekStart,
		DefaultLang:     i18n.Lang(cfg.DefaultLang),
	})
	srv := &http.Server{
		Handler:           app.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}

	fmt.Fprintf(m.Stdout, "boxoffice listening on %s (public URL %s)\n", baseURL, cfg.PublicURL)
	if cfg.WebhookSecretGenerated {
		fmt.Fprintf(m.Stdout, "PAYMENT_WEBHOOK_SECRET was not set; this run uses %s\n", cfg.WebhookSecret)
	}
	logger.Info("listening", "addr", ln.Addr().String(), "public_url", cfg.PublicURL, "payments", payments.Name(),
		"callback_path", payments.CallbackPath(), "refund_automatically", cfg.RefundAutomatically,
		"hold_ttl", cfg.HoldTTL.String(), "max_seats", cfg.MaxSeats, "hold_rate", cfg.HoldRate, "sales_close", cfg.SalesClose.String(), "boxoffice_close", cfg.BoxOfficeClose.String())

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if m.Ready != nil {
		m.Ready(baseURL)
	}

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down: draining in-flight requests", "grace", shutdownGrace.String())
	// ctx is done; the drain gets a fresh deadline of its own.
	drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(drainCtx); err != nil {
		// Asked to stop, we stop: requests still running past the grace
		// period are cut, which the log records, but the exit stays clean.
		logger.Warn("shutdown grace period over; closing remaining connections", "err", err)
		srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	// Then the background work, in what is left of the grace period: a
	// mail being sent is sent and recorded before the store closes.
	logger.Info("waiting for background work to finish")
	if !w.stop(drainCtx) {
		logger.Warn("background work still running after the grace period; closing the database under it")
	}
	logger.Info("stopped")
	return nil
}

// keepDemo stores the demo catalog in an empty database, and in one that
// holds it keeps its schedule DemoDays ahead: each show Demo names that is
// not stored yet is added. A database filled by "boxoffice seed" or by
// admins (shows or theatres, but not the demo's) is left alone. The ids are
// Demo's own, the same in every process, so processes starting together
// add each show once: the second finds it there (ErrShowExists). A demo
// show an admin deleted is not added again (ErrShowDeleted).
func keepDemo(ctx context.Context, store booking.Store, now time.Time, logger *slog.Logger) error {
	demo := catalog.Demo(now)
	// The last thing the first seeding saves marks a database as the
	// demo's, so that a seeding cut short is finished next time.
	marker := demo.Movies[len(demo.Movies)-1]
	_, err := store.Movie(ctx, marker.ID)
	switch {
	case booking.ErrorCode(err) == booking.ENOTFOUND:
		if mine, err := onlyDemoSoFar(ctx, store, demo); err != nil || !mine {
			return err // someone else's catalog
		}
		for _, th := range demo.Theatres {
			if err := booking.SaveTheatreStep(ctx, store, time.Now, th); err != nil {
				return fmt.Errorf("seed demo: %w", err)
			}
		}
		for _, sc := range demo.Screens {
			if err := booking.SaveScreenStep(ctx, store, time.Now, sc); err != nil {
				return fmt.Errorf("seed demo: %w", err)
			}
		}
		for _, th := range demo.Theatres {
			if err := booking.EnsureTicketTypesStep(ctx, store, time.Now, th.ID, demo.Types); err != nil {
				return fmt.Errorf("seed demo: %w", err)
			}
		}
		for _, card := range demo.Cards {
			if err := booking.SavePriceCardStep(ctx, store, time.Now, card, booking.CategoryNames(booking.CategoriesOfTable(card.Cells))); err != nil {
				return fmt.Errorf("seed demo: %w", err)
			}
		}
		for _, m := range demo.Movies { // the marker last
			if err := booking.SaveMovieStep(ctx, store, time.Now, m); err != nil {
				return fmt.Errorf("seed demo: %w", err)
			}
		}
	case err != nil:
		return err
	}
	added, seats := 0, 0
	for _, ss := range demo.Shows {
		// Stored with the names its theatre, screen and movie have now,
		// as an admin may have renamed them since the demo made them.
		_, err := booking.CreateCardShowStep(ctx, store, time.Now, ss.Show, ss.Seats, nil, ss.CardID)
		if errors.Is(err, booking.ErrPriceCardNotFound) {
			// A demo seeded before price cards, or whose card an admin
			// deleted: its shows sell the implicit standard type.
			_, err = booking.CreateCatalogShowStep(ctx, store, time.Now, ss.Show, ss.Seats, nil)
		}
		switch {
		case booking.ErrorCode(err) == booking.ENOTFOUND: // an admin deleted its theatre, screen or movie: no more of its shows
		case errors.Is(err, booking.ErrShowExists):
		case errors.Is(err, booking.ErrShowDeleted): // an admin deleted it: it stays deleted
		case err != nil:
			return fmt.Errorf("seed demo: %w", err)
		default:
			added++
			seats += len(ss.Seats)
		}
	}
	if added > 0 {
		logger.Info("demo catalog: shows added", "shows", added, "seats", seats, "days_ahead", catalog.DemoDays)
	}
	return nil
}

// onlyDemoSoFar reports whether the database holds nothing but (part of)
// the demo's catalog and no show: empty, or a first seeding cut short.
func onlyDemoSoFar(ctx context.Context, store booking.Store, demo catalog.DemoCatalog) (bool, error) {
	n, err := store.CountShows(ctx)
	if err != nil || n > 0 {
		return false, err
	}
	theatres, err := store.ListTheatres(ctx)
	if err != nil {
		return false, err
	}
	for _, th := range theatres {
		if !slices.ContainsFunc(demo.Theatres, func(d booking.Theatre) bool { return d.ID == th.ID }) {
			return false, nil
		}
	}
	return true, nil
}

// demoEvery is how often a running process tops the demo's schedule up.
const demoEvery = time.Hour

func newLogger(format string, w io.Writer) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// listenURL is the URL a person on this machine opens for addr: a wildcard
// host becomes localhost.
func listenURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func portOf(addr net.Addr) string {
	_, port, _ := net.SplitHostPort(addr.String())
	return port
}

// Pruning (SPEC §12): every process, once an hour, deletes history older
// than RETENTION in batches (booking.PruneStore); the first run is a
// minute after start, away from the start's own work.
const (
	pruneEvery = time.Hour
	pruneFirst = time.Minute
	pruneBatch = 1000
)

// prune runs the store's Prune on w until it stops.
func prune(w *workers, store booking.PruneStore, retention time.Duration, logger *slog.Logger) {
	run := func(ctx context.Context) {
		before := time.Now().Add(-retention)
		total := 0
		for ctx.Err() == nil && !w.stopped() {
			n, err := store.Prune(ctx, before, pruneBatch)
			total += n
			if err != nil {
				if ctx.Err() == nil {
					logger.Warn("pruning history", "deleted", total, "err", err)
				}
				return
			}
			if n < pruneBatch {
				break
			}
		}
		if total > 0 {
			logger.Info("pruned history", "deleted", total, "before", before.Format(time.RFC3339))
		}
	}
	w.loop(pruneFirst, pruneEvery, run)
}
