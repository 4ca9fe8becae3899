package web

import (
	"context"
	"errors"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// DefaultRequestTimeout bounds a request's work when Options.RequestTimeout
// is 0: well under a load balancer's idle timeout, well over any healthy
// database call.
const DefaultRequestTimeout = 10 * time.Second

// retryAfterTimeout is the Retry-After of a request that ran out of time.
const retryAfterTimeout = 5 * time.Second

// statusClientClosedRequest is what the metrics record for a request whose
// client went away before the answer (nginx's 499): nothing is written.
const statusClientClosedRequest = 499

// deadline gives the request's context a deadline, so that a stuck database
// call (a MongoDB election, server selection, a SQLite file locked by
// another process) ends with 503 and Retry-After instead of holding the
// goroutine, the connection and the database connection long after the
// client gave up. http.Server's WriteTimeout does not cancel the handler.
// Static files do no database work and may be slow to a slow client, and
// the profiles none either, the CPU profile taking the seconds asked. It is
// Echo's ContextTimeout; its errors go on as they are, to handleError,
// which answers a request out of time (timedOut) with 503 and Retry-After.
func (s *Server) deadline() echo.MiddlewareFunc {
	return middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{
		Skipper:      func(c echo.Context) bool { return c.Path() == staticRoute || c.Path() == profileRoute },
		Timeout:      s.timeout,
		ErrorHandler: func(err error, _ echo.Context) error { return err },
	})
}

// keepClientContext records the request's context as the client's
// connection made it (ctxClient), before deadline replaces it.
func keepClientContext(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(ctxClient, c.Request().Context())
		return next(c)
	}
}

// ctxClient keeps the request's context as the client's connection made
// it, before deadline: whether the client went away is read there, since
// the deadline's own end (or its cancel, as a panic unwinds) is not the
// client's doing.
const ctxClient = "web.client"

// timedOut reports whether err, or the request it ended, ran out of the
// time deadline gave it. Drivers don't all wrap the context's error, so a
// request whose deadline has passed counts too.
func timedOut(c echo.Context, err error) bool {
	return errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(c.Request().Context().Err(), context.DeadlineExceeded)
}

// clientGone reports whether the client went away before the answer.
func clientGone(c echo.Context, err error) bool {
	client, ok := c.Get(ctxClient).(context.Context)
	if !ok {
		client = c.Request().Context()
	}
	return client.Err() != nil || errors.Is(err, context.Canceled) && !timedOut(c, err)
}

// answerable returns a context for writing the answer to a request whose own
// context has ended (the error page is rendered with it, and a changed
// session is committed): the request's values, briefly more time.
func answerable(c echo.Context) (cancel func()) {
	ctx := c.Request().Context()
	if ctx.Err() == nil {
		return func() {}
	}
	ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	c.SetRequest(c.Request().WithContext(ctx))
	return cancel
}
