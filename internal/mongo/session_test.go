package mongo

import (
	"bytes"
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestSessionStore(t *testing.T) {
	s := mustOpen(t)
	ss := s.Sessions()
	// Relative to the real clock: the server's TTL monitor deletes a
	// session whose stored expiry has passed by that clock, whatever ss.now
	// says, so a fixed date would let it delete the test's session mid-test.
	// Whole milliseconds, as a BSON date keeps them.
	now := time.Now().UTC().Truncate(time.Millisecond)
	ss.now = func() time.Time { return now }

	if _, found, err := ss.Find("nope"); err != nil || found {
		t.Fatalf("Find of an unknown token = found %v, %v; want not found, nil", found, err)
	}
	if err := ss.Commit("tok", []byte("one"), now.Add(time.Hour)); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	if b, found, err := ss.Find("tok"); err != nil || !found || !bytes.Equal(b, []byte("one")) {
		t.Fatalf("Find = %q, %v, %v; want one, true, nil", b, found, err)
	}
	// Commit replaces data and expiry.
	if err := ss.CommitCtx(context.Background(), "tok", []byte("two"), now.Add(2*time.Hour)); err != nil {
		t.Fatalf("Commit again: %v", err)
	}
	if b, found, err := ss.FindCtx(context.Background(), "tok"); err != nil || !found || !bytes.Equal(b, []byte("two")) {
		t.Fatalf("Find after a second Commit = %q, %v, %v; want two, true, nil", b, found, err)
	}
	if n, err := s.col(colSessions).CountDocuments(context.Background(), bson.D{}); err != nil || n != 1 {
		t.Errorf("sessions stored = %d, %v; want 1", n, err)
	}

	// Past its expiry a session is gone even before the TTL monitor runs.
	now = now.Add(2 * time.Hour)
	if _, found, err := ss.Find("tok"); err != nil || found {
		t.Errorf("Find at expiry = found %v, %v; want not found", found, err)
	}
	now = now.Add(-time.Second)
	if _, found, err := ss.Find("tok"); err != nil || !found {
		t.Errorf("Find a second before expiry = found %v, %v; want found", found, err)
	}

	if err := ss.Delete("tok"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, found, err := ss.Find("tok"); err != nil || found {
		t.Errorf("Find after Delete = found %v, %v; want not found", found, err)
	}
	if err := ss.DeleteCtx(context.Background(), "tok"); err != nil {
		t.Errorf("Delete of a deleted token: %v", err)
	}
}

// TestSessionTTLIndex: the TTL monitor needs an index on a BSON date with
// expireAfterSeconds, and the stored expiry must be a date.
func TestSessionTTLIndex(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	specs := indexSpecs(t, s, colSessions)
	ttl := false
	for _, spec := range specs {
		if spec["name"] == "expiry_ttl" {
			_, ttl = spec["expireAfterSeconds"]
		}
	}
	if !ttl {
		t.Errorf("sessions has no TTL index on expiry: %v", specs)
	}

	if err := s.Sessions().Commit("tok", []byte("x"), time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	var raw bson.Raw
	if err := s.col(colSessions).FindOne(ctx, bson.D{{Key: "_id", Value: "tok"}}).Decode(&raw); err != nil {
		t.Fatalf("read session: %v", err)
	}
	if typ := raw.Lookup("expiry").Type; typ != bson.TypeDateTime {
		t.Errorf("expiry stored as BSON %v, want a date", typ)
	}
}
