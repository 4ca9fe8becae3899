package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
)

func TestAdminAdd(t *testing.T) {
	dbURL, path := tempDatabaseURL(t)
	add := func(password string) (string, error) {
		var stdout bytes.Buffer
		m := &Main{Stdout: &stdout, Stderr: io.Discard, Stdin: strings.NewReader(password + "\n")}
		err := m.Run(context.Background(), []string{"admin", "add", "--email", "Ops@Example.com", "--database-url", dbURL}, env(nil))
		return stdout.String(), err
	}
	out, err := add("first password")
	if err != nil {
		t.Fatalf("admin add: %v", err)
	}
	if !strings.Contains(out, "ops@example.com") {
		t.Errorf("stdout %q", out)
	}
	// Again: the password is replaced.
	if _, err := add("second password"); err != nil {
		t.Fatalf("admin add again: %v", err)
	}
	store := openStore(t, path)
	adm, err := store.AdminByEmail(context.Background(), "ops@example.com")
	if err != nil {
		t.Fatalf("AdminByEmail: %v", err)
	}
	if bcrypt.CompareHashAndPassword([]byte(adm.PasswordHash), []byte("second password")) != nil {
		t.Error("the stored hash is not of the second password")
	}
	if adm.Role != booking.RoleAdmin {
		t.Errorf("role %q, want admin by default", adm.Role)
	}
	store.Close()

	var stdout bytes.Buffer
	m := &Main{Stdout: &stdout, Stderr: io.Discard, Stdin: strings.NewReader("door password\n")}
	if err := m.Run(context.Background(), []string{"admin", "add", "--email", "door@example.com", "--role", "staff", "--database-url", dbURL}, env(nil)); err != nil {
		t.Fatalf("admin add --role staff: %v", err)
	}
	if got := stdout.String(); got != "staff door@example.com is ready\n" {
		t.Errorf("stdout %q", got)
	}
	store = openStore(t, path)
	if door, err := store.AdminByEmail(context.Background(), "door@example.com"); err != nil || door.Role != booking.RoleStaff {
		t.Errorf("door account %+v, %v; want staff", door, err)
	}
	store.Close()

	var u usageError
	m = &Main{Stdout: io.Discard, Stderr: io.Discard, Stdin: strings.NewReader("long enough\n")}
	if err := m.Run(context.Background(), []string{"admin", "add", "--email", "x@example.com", "--role", "boss", "--database-url", dbURL}, env(nil)); !errors.As(err, &u) {
		t.Errorf("admin add --role boss: %v, want a usage error", err)
	}
	if _, err := add("short"); !errors.As(err, &u) {
		t.Errorf("a 5-character password: %v, want a usage error", err)
	}
	m = &Main{Stdout: io.Discard, Stderr: io.Discard, Stdin: strings.NewReader("")}
	if err := m.Run(context.Background(), []string{"admin", "add"}, env(nil)); !errors.As(err, &u) {
		t.Errorf("admin add without --email: %v, want a usage error", err)
	}
}

func TestEnsureAdminAtStart(t *testing.T) {
	_, path := tempDatabaseURL(t)
	store := openStore(t, path)
	cfg := config.Config{AdminEmail: "boss@example.com", AdminPassword: "from the environment"}
	ensure := func() booking.Admin {
		t.Helper()
		if email, err := ensureAdmin(context.Background(), store, cfg); err != nil || email != "boss@example.com" {
			t.Fatalf("ensureAdmin = %q, %v", email, err)
		}
		adm, err := store.AdminByEmail(context.Background(), "boss@example.com")
		if err != nil {
			t.Fatal(err)
		}
		return adm
	}
	first := ensure()
	if first.Role != booking.RoleAdmin {
		t.Errorf("role %q, want admin", first.Role)
	}
	// A restart with the same password changes nothing, so it signs
	// nobody out.
	if again := ensure(); again != first {
		t.Errorf("a second start with the same password changed the account:\n%+v\n%+v", first, again)
	}
	if _, err := booking.NewAdmins(store, nil, 0).Authenticate(context.Background(), "boss@example.com", "from the environment"); err != nil {
		t.Errorf("Authenticate: %v", err)
	}
	cfg.AdminPassword = "a new one from the environment"
	if changed := ensure(); changed.SessionVersion != first.SessionVersion+1 || changed.ID != first.ID {
		t.Errorf("a new ADMIN_PASSWORD: %+v, want the same account with its sessions ended", changed)
	}
	if email, err := ensureAdmin(context.Background(), store, config.Config{}); err != nil || email != "" {
		t.Errorf("without ADMIN_EMAIL: %q, %v; want nothing done", email, err)
	}
}
