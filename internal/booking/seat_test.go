package booking_test

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var (
	t0  = time.Date(2026, 3, 14, 18, 30, 0, 123456789, time.UTC)
	ttl = 15 * time.Minute
)

func at(d time.Duration) booking.Moment { return booking.Rules{TTL: ttl}.At(t0.Add(d)) }

func TestSeatIsAvailable(t *testing.T) {
	tests := []struct {
		name     string
		status   booking.SeatStatus
		lockedAt time.Time
		m        booking.Moment
		want     bool
	}{
		{"available", booking.SeatAvailable, time.Time{}, at(0), true},
		{"available with a stale timestamp", booking.SeatAvailable, t0, at(0), true},
		{"locked just now", booking.SeatLocked, t0, at(0), false},
		{"locked 1ns younger than TTL", booking.SeatLocked, t0, at(ttl - time.Nanosecond), false},
		{"locked exactly TTL ago", booking.SeatLocked, t0, at(ttl), true},
		{"locked 1ns older than TTL", booking.SeatLocked, t0, at(ttl + time.Nanosecond), true},
		{"locked long ago", booking.SeatLocked, t0, at(100 * ttl), true},
		{"locked in the future", booking.SeatLocked, t0.Add(time.Minute), at(0), false},
		{"booked", booking.SeatBooked, time.Time{}, at(0), false},
		{"booked with an old lock time", booking.SeatBooked, t0, at(100 * ttl), false},
		{"unknown status", booking.SeatStatus("broken"), t0, at(100 * ttl), false},
		{"other TTL, boundary", booking.SeatLocked, t0, booking.Rules{TTL: time.Minute}.At(t0.Add(time.Minute)), true},
		{"other TTL, 1ns before", booking.SeatLocked, t0, booking.Rules{TTL: time.Minute}.At(t0.Add(time.Minute - 1)), false},
		{"time zone does not matter", booking.SeatLocked, t0.In(time.FixedZone("IST", 5*3600+1800)), at(ttl), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := booking.SeatIsAvailable(tt.status, tt.lockedAt, tt.m)
			if got != tt.want {
				t.Errorf("SeatIsAvailable(%q, %v, %v) = %v, want %v", tt.status, tt.lockedAt, tt.m.Now, got, tt.want)
			}
			s := booking.Seat{ID: "A1", Status: tt.status, LockedAt: tt.lockedAt, HoldID: "h"}
			if got := s.AvailableAt(tt.m); got != tt.want {
				t.Errorf("Seat.AvailableAt = %v, want %v", got, tt.want)
			}
			if tt.status == booking.SeatLocked {
				if got := s.HeldAt(tt.m); got == tt.want {
					t.Errorf("Seat.HeldAt = %v, want %v (the opposite of AvailableAt for a locked seat)", got, !tt.want)
				}
			}
		})
	}
}

func TestMomentLapsedBefore(t *testing.T) {
	m := booking.Rules{TTL: ttl}.At(t0)
	if diff := cmp.Diff(t0.Add(-ttl), m.LapsedBefore()); diff != "" {
		t.Errorf("LapsedBefore (-want +got):\n%s", diff)
	}
	if !booking.LockLapsed(m.LapsedBefore(), m) {
		t.Error("a lock taken exactly at LapsedBefore() has not lapsed")
	}
	if booking.LockLapsed(m.LapsedBefore().Add(time.Nanosecond), m) {
		t.Error("a lock taken 1ns after LapsedBefore() has lapsed")
	}
}

func TestSeatLockedBy(t *testing.T) {
	tests := []struct {
		name   string
		seat   booking.Seat
		holdID string
		want   bool
	}{
		{"locked by it", booking.Seat{Status: booking.SeatLocked, HoldID: "h1", LockedAt: t0}, "h1", true},
		{"locked by it, lapsed long ago", booking.Seat{Status: booking.SeatLocked, HoldID: "h1", LockedAt: t0.Add(-100 * ttl)}, "h1", true},
		{"locked by another", booking.Seat{Status: booking.SeatLocked, HoldID: "h2", LockedAt: t0}, "h1", false},
		{"released, old hold id left", booking.Seat{Status: booking.SeatAvailable, HoldID: "h1"}, "h1", false},
		{"booked by it", booking.Seat{Status: booking.SeatBooked, HoldID: "h1"}, "h1", false},
		{"empty hold id never matches", booking.Seat{Status: booking.SeatLocked, HoldID: ""}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.seat.LockedBy(tt.holdID); got != tt.want {
				t.Errorf("LockedBy(%q) = %v, want %v", tt.holdID, got, tt.want)
			}
		})
	}
}

func TestSeatStateFor(t *testing.T) {
	tests := []struct {
		name string
		seat booking.Seat
		mine string
		m    booking.Moment
		want booking.SeatState
	}{
		{"available", booking.Seat{Status: booking.SeatAvailable}, "", at(0), booking.StateAvailable},
		{"available, viewer has a hold", booking.Seat{Status: booking.SeatAvailable}, "h1", at(0), booking.StateAvailable},
		{"held by someone", booking.Seat{Status: booking.SeatLocked, HoldID: "h2", LockedAt: t0}, "h1", at(0), booking.StateHeld},
		{"held by someone, no viewer hold", booking.Seat{Status: booking.SeatLocked, HoldID: "h2", LockedAt: t0}, "", at(0), booking.StateHeld},
		{"held by someone, 1ns before lapse", booking.Seat{Status: booking.SeatLocked, HoldID: "h2", LockedAt: t0}, "", at(ttl - 1), booking.StateHeld},
		{"held by someone, lapsed", booking.Seat{Status: booking.SeatLocked, HoldID: "h2", LockedAt: t0}, "", at(ttl), booking.StateAvailable},
		{"mine", booking.Seat{Status: booking.SeatLocked, HoldID: "h1", LockedAt: t0}, "h1", at(0), booking.StateMine},
		{"mine, lapsed", booking.Seat{Status: booking.SeatLocked, HoldID: "h1", LockedAt: t0}, "h1", at(ttl), booking.StateAvailable},
		{"booked", booking.Seat{Status: booking.SeatBooked}, "", at(0), booking.StateBooked},
		{"booked through my hold", booking.Seat{Status: booking.SeatBooked, HoldID: "h1", LockedAt: t0}, "h1", at(0), booking.StateBooked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.seat.StateFor(tt.mine, tt.m); got != tt.want {
				t.Errorf("StateFor(%q) = %q, want %q", tt.mine, got, tt.want)
			}
		})
	}
}

func TestSeatLockExpiresAt(t *testing.T) {
	s := booking.Seat{Status: booking.SeatLocked, LockedAt: t0}
	if diff := cmp.Diff(t0.Add(ttl), s.LockExpiresAt(ttl)); diff != "" {
		t.Errorf("LockExpiresAt (-want +got):\n%s", diff)
	}
	if s.AvailableAt(booking.Rules{TTL: ttl}.At(s.LockExpiresAt(ttl).Add(-1))) || !s.AvailableAt(booking.Rules{TTL: ttl}.At(s.LockExpiresAt(ttl))) {
		t.Error("LockExpiresAt is not the instant the seat rule frees the seat")
	}
}

func TestValidSeatID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"A1", true}, {"Z999", true}, {"AA12", true}, {"F12", true},
		{"", false}, {"A", false}, {"1", false}, {"A0", false}, {"A01", false},
		{"a1", false}, {"AAA1", false}, {"A1000", false}, {"A1 ", false}, {" A1", false},
		{"A-1", false}, {"Ä1", false}, {"A1\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			if got := booking.ValidSeatID(tt.id); got != tt.want {
				t.Errorf("ValidSeatID(%q) = %v, want %v", tt.id, got, tt.want)
			}
		})
	}
}

// FuzzValidSeatID holds the hand-written matcher to the pattern it
// replaces. The seed corpus is every string of up to four characters over
// an alphabet that reaches each branch; go test -fuzz explores further.
func FuzzValidSeatID(f *testing.F) {
	pattern := regexp.MustCompile(`^[A-Z]{1,2}[1-9][0-9]{0,2}$`)
	alphabet := []string{"", "A", "Z", "a", "0", "1", "9", " ", "Ä"}
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				for _, d := range alphabet {
					f.Add(a + b + c + d)
				}
			}
		}
	}
	f.Add("AB999")
	f.Add("AB1000")
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := booking.ValidSeatID(id), pattern.MatchString(id); got != want {
			t.Errorf("ValidSeatID(%q) = %v; the pattern says %v", id, got, want)
		}
	})
}

func TestCompareSeatIDs(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"numbers numerically", []string{"A10", "A2", "A1", "A100", "A9"}, []string{"A1", "A2", "A9", "A10", "A100"}},
		{"rows first", []string{"B1", "A2", "C1", "A10"}, []string{"A2", "A10", "B1", "C1"}},
		{"double letters after single", []string{"AA1", "Z9", "B1", "AB1", "AA2"}, []string{"B1", "Z9", "AA1", "AA2", "AB1"}},
		{"malformed ids still sort deterministically", []string{"x", "A1", "b"}, []string{"A1", "b", "x"}},
		{"empty", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Clone(tt.in)
			booking.SortSeatIDs(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SortSeatIDs (-want +got):\n%s", diff)
			}
			norm := booking.NormalizeSeatIDs(tt.in)
			if diff := cmp.Diff(tt.want, norm); diff != "" {
				t.Errorf("NormalizeSeatIDs (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("antisymmetric and reflexive", func(t *testing.T) {
		ids := []string{"A1", "A2", "A10", "B1", "AA1", "Z99", "x", ""}
		for _, a := range ids {
			if c := booking.CompareSeatIDs(a, a); c != 0 {
				t.Errorf("CompareSeatIDs(%q, %q) = %d, want 0", a, a, c)
			}
			for _, b := range ids {
				if a != b && booking.CompareSeatIDs(a, b) != -booking.CompareSeatIDs(b, a) {
					t.Errorf("CompareSeatIDs(%q, %q) and (%q, %q) disagree", a, b, b, a)
				}
				if a != b && booking.CompareSeatIDs(a, b) == 0 {
					t.Errorf("CompareSeatIDs(%q, %q) = 0 for different ids", a, b)
				}
			}
		}
	})
	t.Run("NormalizeSeatIDs copies", func(t *testing.T) {
		in := []string{"B1", "A1"}
		_ = booking.NormalizeSeatIDs(in)
		if diff := cmp.Diff([]string{"B1", "A1"}, in); diff != "" {
			t.Errorf("input changed (-want +got):\n%s", diff)
		}
	})
}

func TestCountOccupancy(t *testing.T) {
	seats := []booking.Seat{
		{ID: "A1", Status: booking.SeatAvailable},
		{ID: "A2", Status: booking.SeatLocked, LockedAt: t0},
		{ID: "A3", Status: booking.SeatLocked, LockedAt: t0.Add(-ttl)},
		{ID: "A4", Status: booking.SeatLocked, LockedAt: t0.Add(-ttl + 1)},
		{ID: "A5", Status: booking.SeatBooked},
		{ID: "A6", Status: booking.SeatBooked, LockedAt: t0.Add(-10 * ttl)},
	}
	got := booking.CountOccupancy(seats, at(0))
	want := booking.Occupancy{Total: 6, Booked: 2, Held: 2, Available: 2}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CountOccupancy (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(booking.Occupancy{}, booking.CountOccupancy(nil, at(0))); diff != "" {
		t.Errorf("CountOccupancy(nil) (-want +got):\n%s", diff)
	}
}

func TestCategories(t *testing.T) {
	seats := []booking.Seat{
		{ID: "A1", Category: "Classic", Price: 15000},
		{ID: "A2", Category: "Classic", Price: 15000},
		{ID: "B1", Category: "Prime", Price: 25000},
		{ID: "C1", Category: "Classic", Price: 15000},
		{ID: "D1", Category: "Recliner", Price: 45000},
	}
	want := []booking.Category{{"Classic", 15000}, {"Prime", 25000}, {"Recliner", 45000}}
	if diff := cmp.Diff(want, booking.Categories(seats)); diff != "" {
		t.Errorf("Categories (-want +got):\n%s", diff)
	}
}
