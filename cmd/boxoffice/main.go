// Command boxoffice runs the cinema seat-booking server and its
// maintenance commands. See "boxoffice help".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	// The distroless image has no zoneinfo; embedding it lets TZ choose the
	// zone show times are displayed in.
	_ "time/tzdata"

	"boxoffice/internal/catalog"
	"boxoffice/internal/config"
)

func main() {
	// The first SIGINT or SIGTERM cancels ctx and the server drains; stop
	// then restores the default handling, so a second one ends the process
	// at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "boxoffice:", err)
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintln(os.Stderr, `Run "boxoffice help" for usage.`)
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run is main without the process: tests call it with their own arguments
// (without the program name), environment and outputs.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	m := &Main{Stdout: stdout, Stderr: stderr}
	return m.Run(ctx, args, getenv)
}

// Main is the program with its outputs and hooks, as in wtf's cmd/wtfd, so
// that tests drive exactly what the binary runs.
type Main struct {
	Stdout io.Writer // what a caller may parse: URLs, show ids
	Stderr io.Writer // logs and errors
	Stdin  io.Reader // what "admin add" reads a password from; nil means os.Stdin

	// Ready, when set, is called with the server's base URL once it
	// listens: tests serve on port 0 and learn the port here.
	Ready func(baseURL string)
}

// usageError is a mistake on the command line; main exits 2 for it.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// Run runs the command named by args[0]; serve when there is none, or when
// args start with a flag.
func (m *Main) Run(ctx context.Context, args []string, getenv func(string) string) error {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = m.serve(ctx, args, getenv)
	case "seed":
		err = m.seed(ctx, args, getenv)
	case "migrate":
		err = m.migrate(ctx, args, getenv)
	case "admin":
		err = m.admin(ctx, args, getenv)
	case "backup":
		err = m.backup(ctx, args, getenv)
	case "healthcheck":
		err = m.healthcheck(ctx, args, getenv)
	case "help":
		m.usage(m.Stdout)
		return nil
	default:
		return usageError{fmt.Errorf("unknown command %q", cmd)}
	}
	if errors.Is(err, flag.ErrHelp) {
		m.usage(m.Stdout)
		return nil
	}
	return err
}

// flagError marks a flag parsing error as a usage error.
func flagError(err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError{err}
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprint(w, `boxoffice sells cinema seats: pick seats on a map, hold them while paying, get a ticket.

Usage:
  boxoffice [serve] [flags]    run the web server (the default command)
  boxoffice seed [flags]       add synthetic shows for load tests; print one show id per line
  boxoffice migrate [flags]    create or update the database's tables and indexes
  boxoffice admin add --email E [--role admin|staff] [--database-url URL] [--default-lang L]
                               create an account (admin by default; staff admit at the door
                               and sell at the box office), or set its password and role (the
                               password is asked on the terminal, or read as one line from stdin)
  boxoffice backup [--database-url URL] PATH
                               copy the SQLite database to PATH (a new file) while it serves;
                               see docs/OPERATIONS.md
  boxoffice healthcheck        exit 0 when the server at ADDR answers /healthz (for Docker)
  boxoffice help               show this help

Configuration of serve. Each setting is an environment variable and a flag;
the flag beats the variable, which beats the default:

`)
	config.PrintUsage(w)
	fmt.Fprintf(w, `
Flags of seed:
  --shows N           shows to add (default %d)
  --rows R            rows per show, at most %d (default %d)
  --cols C            seats per row, at most %d (default %d)
  --starts-at T       the first show's start, RFC 3339 (default: tomorrow 18:00 in %s)
  --every D           how far apart the shows start (default %s)
  --price MINOR       every category's price, in minor units (default: Classic 18000, Prime 25000, Recliner 45000)
  --tax-rate PERCENT  the theatre's tax rate, like 18 or 12.5 (default 0)
  --rent W1,W2,...    the movie's rental terms: the distributor's percent per week, like 50,45,40 (default none)
  --database-url URL  as DATABASE_URL
  --default-lang L    as DEFAULT_LANG

Flags of migrate (and of admin add, for the last two):
  --database-url URL  as DATABASE_URL
  --default-lang L    as DEFAULT_LANG: the language bookings stored without one get

Flags of backup:
  --database-url URL  as DATABASE_URL
`, defaultSeedShows, maxRows, defaultSeedRows, maxCols, defaultSeedCols, catalog.SyntheticZone, catalog.DefaultSeedEvery)
}
