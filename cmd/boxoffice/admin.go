package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
)

// admin runs "boxoffice admin add --email E [--role admin|staff]": it asks
// for the password on the terminal (not echoed), or reads one line from
// stdin when stdin is not a terminal, so that scripts and tests can drive
// it. The account is created, or its password and role set.
func (m *Main) admin(ctx context.Context, args []string, getenv func(string) string) error {
	if len(args) == 0 || args[0] != "add" {
		return usageError{errors.New(`admin: the one subcommand is "add --email E"`)}
	}
	fs := flag.NewFlagSet("boxoffice admin add", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	email := fs.String("email", "", "")
	roleName := fs.String("role", string(booking.RoleAdmin), "")
	dbURL := fs.String("database-url", "", "")
	defaultLang := fs.String("default-lang", "", "")
	if err := fs.Parse(args[1:]); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("admin add: unexpected argument %q", fs.Arg(0))}
	}
	if *email == "" {
		return usageError{errors.New("admin add: --email is required")}
	}
	role, err := booking.ParseRole(*roleName)
	if err != nil {
		return usageError{fmt.Errorf("admin add: --role is admin or staff, not %q", *roleName)}
	}
	password, err := m.readPassword()
	if err != nil {
		return fmt.Errorf("admin add: reading the password: %w", err)
	}
	if err := booking.ValidateAdmin(booking.NormalizeEmail(*email), password); err != nil {
		return usageError{fmt.Errorf("admin add: %s", booking.ErrorMessage(err))}
	}
	db, _, err := openDatabaseFlag(ctx, *dbURL, *defaultLang, getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	adm, err := booking.NewAdmins(db.Store, nil, 0).Ensure(ctx, *email, password, role)
	if err != nil {
		return fmt.Errorf("admin add: %w", err)
	}
	fmt.Fprintf(m.Stdout, "%s %s is ready\n", adm.Role, adm.Email)
	return nil
}

// readPassword reads the password from the terminal without echo when
// stdin is one, else the first line of stdin.
func (m *Main) readPassword() (string, error) {
	in := m.Stdin
	if in == nil {
		in = os.Stdin
	}
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(m.Stderr, "Password: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(m.Stderr)
		return string(b), err
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// ensureAdmin creates or updates the ADMIN_EMAIL account at start: an
// admin with ADMIN_PASSWORD. One that has both already is left alone.
func ensureAdmin(ctx context.Context, store booking.Store, cfg config.Config) (string, error) {
	if cfg.AdminEmail == "" {
		return "", nil
	}
	adm, err := booking.NewAdmins(store, nil, 0).Ensure(ctx, cfg.AdminEmail, cfg.AdminPassword, booking.RoleAdmin)
	if err != nil {
		return "", fmt.Errorf("ADMIN_EMAIL: %w", err)
	}
	return adm.Email, nil
}
