package mongo

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"boxoffice/internal/booking"
)

// holdDoc is a hold. PaymentID is set with the hold's payment
// (tx.InsertPayment), so that two concurrent Pay presses write the same
// document and one of them runs again and finds the other's payment.
type holdDoc struct {
	ID        string   `bson:"_id"`
	ShowID    string   `bson:"show_id"`
	Owner     string   `bson:"owner"`
	SeatIDs   []string `bson:"seat_ids"`
	Amount    int64    `bson:"amount"`
	Currency  string   `bson:"currency"`
	CreatedAt int64    `bson:"created_at"` // Unix ns, equal to its seats' locked_at
	State     string   `bson:"state"`
	PaymentID string   `bson:"payment_id"`
	Address   string   `bson:"address,omitempty"` // the client address, for HOLD_SEATS_PER_ADDRESS
	// Extensions counts "More time"; absent in older documents: 0.
	Extensions int `bson:"extensions"`
	// Counter marks a hold made at the box office (SPEC §16); absent in
	// older documents: false.
	Counter bool `bson:"counter,omitempty"`
}

func toHoldDoc(h booking.Hold) holdDoc {
	return holdDoc{
		ID: h.ID, ShowID: h.ShowID, Owner: h.Owner, SeatIDs: h.SeatIDs,
		Amount: int64(h.Amount), Currency: h.Currency, CreatedAt: nanos(h.CreatedAt),
		State: string(h.State), Address: h.Address, Extensions: h.Extensions, Counter: h.Counter,
	}
}

func (d holdDoc) hold() booking.Hold {
	return booking.Hold{
		ID: d.ID, ShowID: d.ShowID, Owner: d.Owner, SeatIDs: d.SeatIDs,
		Amount: booking.Money(d.Amount), Currency: d.Currency,
		CreatedAt: fromNanos(d.CreatedAt), State: booking.HoldState(d.State), Address: d.Address,
		Extensions: d.Extensions, Counter: d.Counter,
	}
}

func byID(id string) bson.D { return bson.D{{Key: "_id", Value: id}} }

func activeHoldFilter(showID, owner string) bson.D {
	return bson.D{
		{Key: "show_id", Value: showID},
		{Key: "owner", Value: owner},
		{Key: "state", Value: string(booking.HoldActive)},
	}
}

// Hold returns a hold by id, whoever owns it.
func (s *Store) Hold(ctx context.Context, holdID string) (booking.Hold, error) {
	d, err := findHold(ctx, s.col(colHolds), byID(holdID))
	if err != nil {
		return booking.Hold{}, notFound(err, booking.ErrHoldNotFound, "hold")
	}
	return d.hold(), nil
}

// ActiveHold returns owner's active hold for a show, possibly expired.
func (s *Store) ActiveHold(ctx context.Context, showID, owner string) (booking.Hold, error) {
	d, err := findHold(ctx, s.col(colHolds), activeHoldFilter(showID, owner))
	if err != nil {
		return booking.Hold{}, notFound(err, booking.ErrHoldNotFound, "active hold")
	}
	return d.hold(), nil
}

func findHold(ctx context.Context, c *mongo.Collection, filter bson.D) (holdDoc, error) {
	var d holdDoc
	err := c.FindOne(ctx, filter).Decode(&d)
	return d, err
}

func setState(state booking.HoldState) bson.D {
	return bson.D{{Key: "$set", Value: bson.D{{Key: "state", Value: string(state)}}}}
}
