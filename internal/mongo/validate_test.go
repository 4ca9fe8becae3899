package mongo

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"boxoffice/internal/booking"
)

// TestHoldSeatsValidatesFirst needs no server: the store has no client, so
// a request that got past validation would panic. The port's contract is
// the SQLite adapter's: invalid input is EINVALID, never an internal error.
func TestHoldSeatsValidatesFirst(t *testing.T) {
	s := &Store{txTimeout: TxTimeout}
	m := booking.Moment{Now: time.Now(), TTL: time.Minute, AllowGaps: true}
	ok := booking.Hold{ID: booking.NewHoldID(time.Now()), ShowID: "s1", Owner: "o1", SeatIDs: []string{"A1"}}
	tests := map[string]func(h *booking.Hold){
		"no seats":        func(h *booking.Hold) { h.SeatIDs = nil },
		"empty seat list": func(h *booking.Hold) { h.SeatIDs = []string{} },
		"duplicate seat":  func(h *booking.Hold) { h.SeatIDs = []string{"A1", "A2", "A1"} },
		"invalid seat id": func(h *booking.Hold) { h.SeatIDs = []string{"A1", "$where"} },
		"no owner":        func(h *booking.Hold) { h.Owner = "" },
		"no id":           func(h *booking.Hold) { h.ID = "" },
	}
	for name, change := range tests {
		t.Run(name, func(t *testing.T) {
			h := ok
			h.SeatIDs = append([]string(nil), ok.SeatIDs...)
			change(&h)
			err := s.HoldSeats(context.Background(), h, m)
			if booking.ErrorCode(err) != booking.EINVALID {
				t.Errorf("HoldSeats(%+v) = %v, want an EINVALID error", h, err)
			}
		})
	}
}

// TestCreateShowRefusesDuplicateSeats needs no server: a seat listed twice
// is refused before anything is written (an unordered insert would store
// the others and leave seats of a show that does not exist).
func TestCreateShowRefusesDuplicateSeats(t *testing.T) {
	s := &Store{txTimeout: TxTimeout}
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now(), Currency: "INR"}
	seats := []booking.Seat{{ID: "A1", Price: 100}, {ID: "A2", GridCol: 1, Price: 100}, {ID: "A1", GridCol: 2, Price: 100}}
	if err := s.CreateShow(context.Background(), show, seats); booking.ErrorCode(err) != booking.EINVALID {
		t.Errorf("CreateShow with seat A1 twice = %v, want an EINVALID error", err)
	}
}

// TestIsActiveHoldConflict needs no server: only a duplicate key on
// show_owner_active is the same-session race that HoldSeats runs again; a
// duplicate hold _id is not, since running again cannot fix it.
func TestIsActiveHoldConflict(t *testing.T) {
	writeErr := func(t *testing.T, doc bson.D) error {
		raw, err := bson.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		we := mongo.WriteError{Code: 11000, Raw: raw}
		if v, err := bson.Raw(raw).LookupErr("errmsg"); err == nil {
			we.Message = v.StringValue()
		}
		return mongo.WriteException{WriteErrors: mongo.WriteErrors{we}}
	}
	activeKey := bson.D{{Key: "show_id", Value: 1}, {Key: "owner", Value: 1}, {Key: "state", Value: 1}}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"active hold index", writeErr(t, bson.D{
			{Key: "index", Value: 0}, {Key: "code", Value: 11000}, {Key: "keyPattern", Value: activeKey},
			{Key: "errmsg", Value: "E11000 duplicate key error collection: b.holds index: show_owner_active dup key: { ... }"},
		}), true},
		{"active hold index, wrapped", fmtWrap(writeErr(t, bson.D{
			{Key: "code", Value: 11000}, {Key: "keyPattern", Value: activeKey},
		})), true},
		{"hold _id", writeErr(t, bson.D{
			{Key: "index", Value: 0}, {Key: "code", Value: 11000}, {Key: "keyPattern", Value: bson.D{{Key: "_id", Value: 1}}},
			{Key: "errmsg", Value: "E11000 duplicate key error collection: b.holds index: _id_ dup key: { _id: \"h1\" }"},
		}), false},
		{"no keyPattern, index named in message", writeErr(t, bson.D{
			{Key: "code", Value: 11000},
			{Key: "errmsg", Value: "E11000 duplicate key error collection: b.holds index: show_owner_active dup key: { ... }"},
		}), true},
		{"no keyPattern, _id in message", writeErr(t, bson.D{
			{Key: "code", Value: 11000},
			{Key: "errmsg", Value: "E11000 duplicate key error collection: b.holds index: _id_ dup key: { _id: \"h1\" }"},
		}), false},
		{"another write error", mongo.WriteException{WriteErrors: mongo.WriteErrors{{Code: 2, Message: "show_owner_active"}}}, false},
		{"not a write error", errors.New("show_owner_active"), false},
	}
	for _, tt := range tests {
		if got := isActiveHoldConflict(tt.err); got != tt.want {
			t.Errorf("%s: isActiveHoldConflict = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func fmtWrap(err error) error { return errors.Join(errors.New("insert hold"), err) }

// TestOrphanSeatsAreHiddenAndTakenUp: seats of a show whose CreateShow
// died halfway (here written directly) are not a show for Seats, and the
// retry with the same show id takes them up (its upserts insert only the
// seats missing), so that the show has each seat once.
func TestOrphanSeatsAreHiddenAndTakenUp(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now(), Currency: "INR"}
	seats := []booking.Seat{{ID: "A1", Row: "A", Number: 1, Price: 100}, {ID: "A2", Row: "A", Number: 2, GridCol: 1, Price: 100}}
	if _, err := s.col(colSeats).InsertOne(ctx, toSeatDoc(show.ID, seats[0])); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seats(ctx, show.ID); !errors.Is(err, booking.ErrShowNotFound) {
		t.Errorf("Seats of a show with orphan seats = %v, want ErrShowNotFound", err)
	}
	if err := s.CreateShow(ctx, show, seats); err != nil {
		t.Fatalf("CreateShow over an orphan seat: %v", err)
	}
	if n, err := s.col(colSeats).CountDocuments(ctx, bson.D{{Key: "show_id", Value: show.ID}}); err != nil || n != 2 {
		t.Errorf("seats of the show = %d, %v; want 2", n, err)
	}
	if got, err := s.Seats(ctx, show.ID); err != nil || len(got) != 2 {
		t.Errorf("Seats = %d seats, %v; want 2", len(got), err)
	}
}

// TestReusedHoldIDFailsAtOnce: a duplicate hold _id is not the same-session
// race, and is not run again until the step's deadline.
func TestReusedHoldIDFailsAtOnce(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now(), Currency: "INR"}
	seats := []booking.Seat{{ID: "A1", Row: "A", Number: 1, Price: 100}, {ID: "A2", Row: "A", Number: 2, GridCol: 1, Price: 100}}
	if err := s.CreateShow(ctx, show, seats); err != nil {
		t.Fatal(err)
	}
	m := booking.Moment{Now: time.Now(), TTL: time.Minute, AllowGaps: true}
	h := booking.Hold{ID: booking.NewHoldID(time.Now()), ShowID: show.ID, Owner: "o1", SeatIDs: []string{"A1"}}
	if err := s.HoldSeats(ctx, h, m); err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}
	if _, err := s.ReleaseHold(ctx, h.ID, h.Owner); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	h.SeatIDs = []string{"A2"}
	start := time.Now()
	if err := s.HoldSeats(ctx, h, m); err == nil || errors.Is(err, errHoldRace) {
		t.Errorf("HoldSeats with a used hold id = %v, want an error that is not errHoldRace", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("HoldSeats with a used hold id took %v", d)
	}
}
