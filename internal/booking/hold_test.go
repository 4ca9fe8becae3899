package booking_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

func TestValidateSeatRequest(t *testing.T) {
	tests := []struct {
		name     string
		seats    []string
		max      int
		wantErr  bool
		wantText string // part of the person-safe message
	}{
		{name: "one seat", seats: []string{"A1"}, max: 10},
		{name: "exactly max", seats: []string{"A1", "A2", "A3"}, max: 3},
		{name: "none", seats: nil, max: 10, wantErr: true, wantText: "at least one seat"},
		{name: "empty slice", seats: []string{}, max: 10, wantErr: true, wantText: "at least one seat"},
		{name: "too many", seats: []string{"A1", "A2", "A3", "A4"}, max: 3, wantErr: true, wantText: "at most 3 seats at a time; you chose 4"},
		{name: "duplicate", seats: []string{"A1", "B2", "A1"}, max: 10, wantErr: true, wantText: "Seat A1 was chosen twice"},
		{name: "malformed", seats: []string{"A1", "1A"}, max: 10, wantErr: true, wantText: `"1A" is not a seat`},
		{name: "empty id", seats: []string{""}, max: 10, wantErr: true, wantText: `"" is not a seat`},
		{name: "lower case", seats: []string{"a1"}, max: 10, wantErr: true, wantText: "is not a seat"},
		{name: "long malformed id is truncated", seats: []string{strings.Repeat("x", 100)}, max: 10, wantErr: true, wantText: `"xxxxxxxxxxxx…" is not a seat`},
		{name: "markup is quoted", seats: []string{"<b>A1</b>"}, max: 10, wantErr: true, wantText: `"<b>A1</b>" is not a seat`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := booking.ValidateSeatRequest(tt.seats, tt.max)
			if !tt.wantErr {
				if err != nil {
					t.Fatalf("ValidateSeatRequest(%q, %d) = %v, want nil", tt.seats, tt.max, err)
				}
				return
			}
			if got := booking.ErrorCode(err); got != booking.EINVALID {
				t.Fatalf("ValidateSeatRequest(%q, %d) = %v (code %q), want code %q", tt.seats, tt.max, err, got, booking.EINVALID)
			}
			if msg := booking.ErrorMessage(err); !strings.Contains(msg, tt.wantText) {
				t.Errorf("message %q does not contain %q", msg, tt.wantText)
			}
		})
	}
}

func seat(id string, status booking.SeatStatus, holdID string, lockedAt time.Time) booking.Seat {
	return booking.Seat{ID: id, Status: status, HoldID: holdID, LockedAt: lockedAt, Price: 100}
}

func TestCheckHoldable(t *testing.T) {
	found := []booking.Seat{
		seat("A1", booking.SeatAvailable, "", time.Time{}),
		seat("A2", booking.SeatLocked, "other", t0),              // held, live
		seat("A3", booking.SeatLocked, "other", t0.Add(-ttl)),    // lapsed exactly now
		seat("A4", booking.SeatBooked, "", time.Time{}),          // booked
		seat("A5", booking.SeatLocked, "prev", t0),               // my previous hold, live
		seat("A6", booking.SeatLocked, "prev", t0.Add(-2*ttl)),   // my previous hold, lapsed
		seat("A10", booking.SeatLocked, "other", t0.Add(-ttl+1)), // held, 1ns from lapsing
	}
	tests := []struct {
		name      string
		requested []string
		prev      string
		wantCode  string   // "" for success
		wantSeats []string // for ECONFLICT
		wantText  string   // for EINVALID
	}{
		{name: "available", requested: []string{"A1"}},
		{name: "lapsed lock", requested: []string{"A3"}},
		{name: "previous hold's seat counts as available", requested: []string{"A5", "A1"}, prev: "prev"},
		{name: "previous hold's lapsed seat", requested: []string{"A6"}, prev: "prev"},
		{name: "someone else's previous hold is no help", requested: []string{"A5"}, prev: "other2", wantCode: booking.ECONFLICT, wantSeats: []string{"A5"}},
		{name: "live lock", requested: []string{"A1", "A2"}, wantCode: booking.ECONFLICT, wantSeats: []string{"A2"}},
		{name: "booked", requested: []string{"A4"}, prev: "prev", wantCode: booking.ECONFLICT, wantSeats: []string{"A4"}},
		{name: "every taken seat named, sorted", requested: []string{"A10", "A4", "A1", "A2", "A3"}, wantCode: booking.ECONFLICT, wantSeats: []string{"A2", "A4", "A10"}},
		{name: "unknown seat", requested: []string{"A1", "Z9"}, wantCode: booking.EINVALID, wantText: "no seat Z9"},
		{name: "unknown seats win over taken ones", requested: []string{"Z9", "A2", "B1"}, wantCode: booking.EINVALID, wantText: "no seat B1, Z9"},
		{name: "nothing found", requested: []string{"A1"}, wantCode: booking.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := found
			if tt.name == "nothing found" {
				in = nil
			}
			err := booking.CheckHoldable(tt.requested, in, []string{tt.prev}, at(0))
			if got := booking.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("CheckHoldable(%q) = %v (code %q), want code %q", tt.requested, err, got, tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantSeats, booking.UnavailableSeats(err)); diff != "" {
				t.Errorf("unavailable seats (-want +got):\n%s", diff)
			}
			if tt.wantText != "" && !strings.Contains(booking.ErrorMessage(err), tt.wantText) {
				t.Errorf("message %q does not contain %q", booking.ErrorMessage(err), tt.wantText)
			}
		})
	}
}

// TestDecideHold: the one decision of a hold, on a row as a store reads
// it: A1 booked, A2 held by another session, A3 and A4 the owner's
// previous hold (A4's lock lapsed, so free to anyone), A5–A10 free.
func TestDecideHold(t *testing.T) {
	row := []booking.Seat{
		seat("A1", booking.SeatBooked, "", time.Time{}),
		seat("A2", booking.SeatLocked, "other", t0),
		seat("A3", booking.SeatLocked, "prev", t0),
		seat("A4", booking.SeatLocked, "prev", t0.Add(-2*ttl)),
		seat("A5", booking.SeatAvailable, "", time.Time{}),
		seat("A6", booking.SeatAvailable, "", time.Time{}),
		seat("A7", booking.SeatAvailable, "", time.Time{}),
		seat("A8", booking.SeatAvailable, "", time.Time{}),
		seat("A9", booking.SeatAvailable, "", time.Time{}),
		seat("A10", booking.SeatAvailable, "", time.Time{}),
	}
	for i := range row {
		row[i].GridCol, row[i].Price = i, booking.Money(100*(i+1))
	}
	allowGaps := at(0)
	allowGaps.AllowGaps = true
	tests := []struct {
		name      string
		seats     []string
		prev      []string
		paying    bool
		m         booking.Moment
		amount    booking.Money
		wantCode  string
		wantSeats []string // taken
		wantGap   string
	}{
		{name: "free seats, priced", seats: []string{"A7", "A8", "A9", "A10"}, amount: 700 + 800 + 900 + 1000},
		{name: "the previous hold's seats are the owner's", seats: []string{"A3", "A4"}, prev: []string{"prev"}, amount: 300 + 400},
		{name: "without the previous hold they are taken", seats: []string{"A3", "A4"}, wantCode: booking.ECONFLICT, wantSeats: []string{"A3"}},
		{name: "a conflict is told before a gap", seats: []string{"A2", "A6"}, wantCode: booking.ECONFLICT, wantSeats: []string{"A2"}},
		{name: "a seat left alone", seats: []string{"A5", "A6", "A7"}, wantCode: booking.EINVALID, wantGap: "A4"},
		{name: "the previous hold's seats count as free for the gap rule", seats: []string{"A4"}, prev: []string{"prev"}, wantCode: booking.EINVALID, wantGap: "A3"},
		{name: "gaps allowed", seats: []string{"A5", "A6", "A7"}, m: allowGaps, amount: 500 + 600 + 700},
		{name: "unknown seat", seats: []string{"A5", "A11"}, wantCode: booking.EINVALID},
		{name: "the previous hold is being paid for", seats: []string{"A3", "A4"}, prev: []string{"prev"}, paying: true, wantCode: booking.ECONFLICT},
		{name: "paying is told first", seats: []string{"A2", "A11"}, prev: []string{"prev"}, paying: true, wantCode: booking.ECONFLICT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.m
			if m.TTL == 0 {
				m = at(0)
			}
			h := booking.Hold{ID: "new", Owner: "o1", SeatIDs: tt.seats}
			var prev booking.PreviousHold
			if len(tt.prev) > 0 {
				prev = booking.PreviousHold{ID: tt.prev[0], SeatIDs: []string{"A4", "A3"}, Paying: tt.paying}
			}
			amount, err := booking.DecideHold(h, row, prev, m)
			var pe *booking.PayingError
			if errors.As(err, &pe) != tt.paying {
				t.Fatalf("DecideHold(%q) = %v; a pending payment refused: %v", tt.seats, err, tt.paying)
			}
			if pe != nil && (pe.HoldID != "prev" || booking.ErrorMessage(err) != "You are paying for A3, A4: finish, or go Back first.") {
				t.Errorf("PayingError %+v says %q", pe, booking.ErrorMessage(err))
			}
			if got := booking.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("DecideHold(%q) = %v (code %q), want code %q", tt.seats, err, got, tt.wantCode)
			}
			if err == nil && amount != tt.amount {
				t.Errorf("amount %d, want %d", amount, tt.amount)
			}
			if diff := cmp.Diff(tt.wantSeats, booking.UnavailableSeats(err)); diff != "" {
				t.Errorf("unavailable seats (-want +got):\n%s", diff)
			}
			var ge *booking.GapError
			if gotGap := ""; errors.As(err, &ge) {
				gotGap = ge.Seat
				if gotGap != tt.wantGap {
					t.Errorf("gap at %s, want %s", gotGap, tt.wantGap)
				}
			} else if tt.wantGap != "" {
				t.Errorf("no gap refused, want one at %s", tt.wantGap)
			}
		})
	}
}

func TestHoldCheckPayable(t *testing.T) {
	h := booking.Hold{ID: "h1", Owner: "o1", CreatedAt: t0, State: booking.HoldActive}
	with := func(s booking.HoldState) booking.Hold { c := h; c.State = s; return c }
	tests := []struct {
		name string
		hold booking.Hold
		m    booking.Moment
		want error
	}{
		{"active, fresh", h, at(0), nil},
		{"active, 1ns before expiry", h, at(ttl - 1), nil},
		{"active, expired exactly", h, at(ttl), booking.ErrHoldExpired},
		{"active, long expired", h, at(10 * ttl), booking.ErrHoldExpired},
		{"released", with(booking.HoldReleased), at(0), booking.ErrHoldReleased},
		{"replaced", with(booking.HoldReplaced), at(0), booking.ErrHoldReplaced},
		{"completed", with(booking.HoldCompleted), at(0), booking.ErrHoldCompleted},
		{"released and expired says released", with(booking.HoldReleased), at(10 * ttl), booking.ErrHoldReleased},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.hold.CheckPayable(tt.m)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("CheckPayable = %v, want %v", err, tt.want)
			}
			if err != nil && booking.ErrorCode(err) != booking.EGONE {
				t.Errorf("code %q, want %q", booking.ErrorCode(err), booking.EGONE)
			}
		})
	}
}

func TestHoldExpiry(t *testing.T) {
	h := booking.Hold{CreatedAt: t0}
	if diff := cmp.Diff(t0.Add(ttl), h.ExpiresAt(ttl)); diff != "" {
		t.Errorf("ExpiresAt (-want +got):\n%s", diff)
	}
	if h.ExpiredAt(at(ttl - 1)) {
		t.Error("expired 1ns before ExpiresAt")
	}
	if !h.ExpiredAt(at(ttl)) {
		t.Error("not expired at ExpiresAt")
	}
}

func TestHoldCheckOwner(t *testing.T) {
	tests := []struct {
		name      string
		holdOwner string
		owner     string
		want      error
	}{
		{"owner", "o1", "o1", nil},
		{"someone else", "o1", "o2", booking.ErrNotOwner},
		{"no session", "o1", "", booking.ErrNotOwner},
		{"ownerless hold, no session", "", "", booking.ErrNotOwner},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := booking.Hold{Owner: tt.holdOwner}.CheckOwner(tt.owner)
			if err != tt.want {
				t.Fatalf("CheckOwner(%q) = %v, want %v", tt.owner, err, tt.want)
			}
			if err != nil && booking.ErrorCode(err) != booking.ENOTFOUND {
				t.Errorf("code %q, want %q (another session must not learn the hold exists)", booking.ErrorCode(err), booking.ENOTFOUND)
			}
		})
	}
}

func TestSumPrices(t *testing.T) {
	seats := []booking.Seat{{Price: 15000}, {Price: 25050}, {Price: 0}}
	if got, want := booking.SumPrices(seats), booking.Money(40050); got != want {
		t.Errorf("SumPrices = %d, want %d", got, want)
	}
	if got := booking.SumPrices(nil); got != 0 {
		t.Errorf("SumPrices(nil) = %d, want 0", got)
	}
}

func TestErrors(t *testing.T) {
	wrapped := fmt.Errorf("sqlite: hold seats: %w", &booking.UnavailableError{Seats: []string{"A1", "A2"}})
	tests := []struct {
		name     string
		err      error
		wantCode string
		wantMsg  string
	}{
		{"nil", nil, "", ""},
		{"sentinel", booking.ErrShowNotFound, booking.ENOTFOUND, "There is no such show."},
		{"wrapped sentinel", fmt.Errorf("mongo: show: %w", booking.ErrHoldExpired), booking.EGONE, booking.ErrHoldExpired.Message},
		{"one unavailable seat", &booking.UnavailableError{Seats: []string{"A1"}}, booking.ECONFLICT, "Seat A1 was just taken by someone else."},
		{"wrapped unavailable seats", wrapped, booking.ECONFLICT, "Seats A1, A2 were just taken by someone else."},
		{"internal error text is hidden", errors.New("sqlite: database is locked (5)"), booking.EINTERNAL, "Something went wrong on our side. Please try again."},
		{"Errorf", booking.Errorf(booking.EINVALID, "bad %d", 7), booking.EINVALID, "bad 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := booking.ErrorCode(tt.err); got != tt.wantCode {
				t.Errorf("ErrorCode = %q, want %q", got, tt.wantCode)
			}
			if got := booking.ErrorMessage(tt.err); got != tt.wantMsg {
				t.Errorf("ErrorMessage = %q, want %q", got, tt.wantMsg)
			}
		})
	}
	t.Run("sentinels are told apart", func(t *testing.T) {
		if errors.Is(booking.ErrNotOwner, booking.ErrHoldNotFound) {
			t.Error("ErrNotOwner is ErrHoldNotFound; callers cannot tell them apart")
		}
		if booking.ErrNotOwner.Message != booking.ErrHoldNotFound.Message {
			t.Error("ErrNotOwner's message differs from ErrHoldNotFound's: it tells another session the hold exists")
		}
	})
	if diff := cmp.Diff([]string{"A1", "A2"}, booking.UnavailableSeats(wrapped)); diff != "" {
		t.Errorf("UnavailableSeats (-want +got):\n%s", diff)
	}
	if got := booking.UnavailableSeats(booking.ErrShowNotFound); got != nil {
		t.Errorf("UnavailableSeats(ErrShowNotFound) = %q, want nil", got)
	}
}
