package mongo

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// TestHoldSeatsValidatesFirst needs no server: the store has no client, so
// a request that got past the step's validation would panic. Invalid input
// is EINVALID, never an internal error.
func TestHoldSeatsValidatesFirst(t *testing.T) {
	s := &Store{txTimeout: TxTimeout}
	m := booking.Rules{TTL: time.Minute, AllowGaps: true}.At(time.Now())
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
			err := booking.HoldSeatsStep(context.Background(), s, m.Clock(), h, m.Rules)
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
	if err := booking.CreateShowStep(context.Background(), s, time.Now, show, seats); booking.ErrorCode(err) != booking.EINVALID {
		t.Errorf("CreateShow with seat A1 twice = %v, want an EINVALID error", err)
	}
}

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
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
		t.Fatalf("CreateShow over an orphan seat: %v", err)
	}
	if n, err := s.col(colSeats).CountDocuments(ctx, bson.D{{Key: "show_id", Value: show.ID}}); err != nil || n != 2 {
		t.Errorf("seats of the show = %d, %v; want 2", n, err)
	}
	if got, err := s.Seats(ctx, show.ID); err != nil || len(got) != 2 {
		t.Errorf("Seats = %d seats, %v; want 2", len(got), err)
	}
}

// TestReusedHoldIDFailsAtOnce: a duplicate hold _id (of a hold committed
// long before) is a duplicate key, not a write conflict, and is not run
// again until the step's deadline.
func TestReusedHoldIDFailsAtOnce(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now(), Currency: "INR"}
	seats := []booking.Seat{{ID: "A1", Row: "A", Number: 1, Price: 100}, {ID: "A2", Row: "A", Number: 2, GridCol: 1, Price: 100}}
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	m := booking.Rules{TTL: time.Minute, AllowGaps: true}.At(time.Now())
	h := booking.Hold{ID: booking.NewHoldID(time.Now()), ShowID: show.ID, Owner: "o1", SeatIDs: []string{"A1"}}
	if err := booking.HoldSeatsStep(ctx, s, m.Clock(), h, m.Rules); err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}
	if _, err := booking.ReleaseHoldStep(ctx, s, m.Clock(), h.ID, h.Owner); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	h.SeatIDs = []string{"A2"}
	start := time.Now()
	if err := booking.HoldSeatsStep(ctx, s, m.Clock(), h, m.Rules); err == nil {
		t.Error("HoldSeats with a used hold id succeeded, want an error")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("HoldSeats with a used hold id took %v", d)
	}
}
