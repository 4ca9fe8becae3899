package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"boxoffice/internal/testkit"
)

func TestMain(m *testing.M) { os.Exit(testkit.Run(m)) }

// TestJourneyWithKill is the flash sale in small, as make test runs it:
// two real boxoffice processes on one SQLite file, 300 moviegoers through
// the real routes (best available, hold, pay in the sandbox or decline,
// Back, walk away), one process SIGKILLed half way through the sale and
// started again. It asserts what the database says at the end, never
// timings: the invariants of booking.CheckAudit, every booking a moviegoer
// saw confirmed still confirmed, integrity_check ok.
func TestJourneyWithKill(t *testing.T) {
	bin := testkit.BuildBinary(t)
	db := filepath.Join(t.TempDir(), "journey.db")
	var out, progress bytes.Buffer
	err := runJourney(context.Background(), []string{
		"-bin", bin, "-db", db, "-procs", "2", "-kill", "-moviegoers", "300", "-users", "12",
		"-rows", "20", "-cols", "12", "-seed", "7", "-progress", "0", "-keep",
	}, &out, &progress)
	t.Logf("journey report:\n%s%s", out.String(), progress.String())
	if err != nil {
		t.Fatal(err)
	}
	report := out.String()
	for _, want := range []string{"invariants: ok", "process 1 killed (SIGKILL)", "integrity_check ok"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	m := regexp.MustCompile(`seats sold (\d+) of 240 \((\d+) bookings`).FindStringSubmatch(report)
	if m == nil {
		t.Fatal("the report does not say how many of the 240 seats were sold")
	}
	if sold, _ := strconv.Atoi(m[1]); sold == 0 {
		t.Error("no seat was sold")
	}
}

// TestJourneyFlags: bad flags are refused with what is wrong.
func TestJourneyFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-procs", "0"}, {"-pay", "0.9", "-back", "0.2"}, {"-moviegoers", "-1"}, {"-shows", "0"}, {"-party", "0"}, {"extra"},
	} {
		if _, err := parseJourneyFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	existing := filepath.Join(t.TempDir(), "x.db")
	os.WriteFile(existing, nil, 0o644)
	if err := runJourney(context.Background(), []string{"-db", existing}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("an existing -db: %v", err)
	}
}
