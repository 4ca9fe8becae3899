package mongo

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// TestOnSaleDocRoundTrip needs no server: an on-sale and a queue entry
// come back from BSON as they went in, to the nanosecond (times are int64
// Unix ns, not BSON dates, which keep milliseconds: two joins in one
// millisecond keep their order), with the key as binary and open (ClosedAt
// zero) as zero.
func TestOnSaleDocRoundTrip(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 123456789, time.UTC)
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i * 7)
	}
	o := booking.OnSale{
		ID: booking.NewID(), Name: "Endgame", OpensAt: t0, ClosesAt: t0.Add(2 * time.Hour), PassTTL: 15 * time.Minute,
		Key: key, Shows: []string{"s1", "s2"}, CreatedAt: t0.Add(-time.Hour + time.Nanosecond),
		Segments: []booking.Segment{{From: t0, Rate: 60}, {From: t0.Add(time.Nanosecond), Rate: booking.MaxAdmissionRate, Paused: true}},
	}
	raw, err := bson.Marshal(toOnSaleDoc(o))
	if err != nil {
		t.Fatal(err)
	}
	if v := bson.Raw(raw).Lookup("key"); v.Type != bson.TypeBinary {
		t.Errorf("key stored as %v, want binary", v.Type)
	}
	if v := bson.Raw(raw).Lookup("closed_at"); v.Type != bson.TypeInt64 || v.Int64() != 0 {
		t.Errorf("closed_at of an open on-sale stored as %v, want int64 0", v)
	}
	var d onSaleDoc
	if err := bson.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(o, d.onSale()); diff != "" {
		t.Errorf("on-sale after BSON (-want +got):\n%s", diff)
	}

	e := booking.QueueEntry{OnSaleID: o.ID, JoinID: booking.NewID(), JoinedAt: t0.Add(999 * time.Microsecond), Before: true, Rank: booking.QueueRank(key, "j")}
	raw, err = bson.Marshal(queueDoc{JoinID: e.JoinID, OnSale: e.OnSaleID, JoinedAt: nanos(e.JoinedAt), Before: e.Before, Rank: e.Rank})
	if err != nil {
		t.Fatal(err)
	}
	var q queueDoc
	if err := bson.Unmarshal(raw, &q); err != nil {
		t.Fatal(err)
	}
	if !fromNanos(q.JoinedAt).Equal(e.JoinedAt) || q.JoinID != e.JoinID || q.Rank != e.Rank || !q.Before {
		t.Errorf("queue entry after BSON %+v, want %+v", q, e)
	}
}
