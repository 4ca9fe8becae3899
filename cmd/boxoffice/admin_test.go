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
	store.Close()

	var u usageError
	if _, err := add("short"); !errors.As(err, &u) {
		t.Errorf("a 5-character password: %v, want a usage error", err)
	}
	m := &Main{Stdout: io.Discard, Stderr: io.Discard, Stdin: strings.NewReader("")}
	if err := m.Run(context.Background(), []string{"admin", "add"}, env(nil)); !errors.As(err, &u) {
		t.Errorf("admin add without --email: %v, want a usage error", err)
	}
}

func TestEnsureAdminAtStart(t *testing.T) {
	_, path := tempDatabaseURL(t)
	store := openStore(t, path)
	cfg := config.Config{AdminEmail: "boss@example.com", AdminPassword: "from the environment"}
	for range 2 { // created, then updated
		if email, err := ensureAdmin(context.Background(), store, cfg); err != nil || email != "boss@example.com" {
			t.Fatalf("ensureAdmin = %q, %v", email, err)
		}
	}
	if _, err := booking.NewAdmins(store, nil, 0).Authenticate(context.Background(), "boss@example.com", "from the environment"); err != nil {
		t.Errorf("Authenticate: %v", err)
	}
	if email, err := ensureAdmin(context.Background(), store, config.Config{}); err != nil || email != "" {
		t.Errorf("without ADMIN_EMAIL: %q, %v; want nothing done", email, err)
	}
}
