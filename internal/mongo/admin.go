package mongo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// adminDoc is an admin account; the admins collection has a unique index on
// email.
type adminDoc struct {
	ID           string `bson:"_id"`
	Email        string `bson:"email"`
	PasswordHash string `bson:"password_hash"`
	CreatedAt    int64  `bson:"created_at"`
	UpdatedAt    int64  `bson:"updated_at"`
}

func (d adminDoc) admin() booking.Admin {
	return booking.Admin{
		ID: d.ID, Email: d.Email, PasswordHash: d.PasswordHash,
		CreatedAt: fromNanos(d.CreatedAt), UpdatedAt: fromNanos(d.UpdatedAt),
	}
}

// UpsertAdmin inserts a, or sets the password of the admin with its email,
// in one findAndModify. Two processes upserting one new email at once may
// both try to insert; the loser's duplicate key is retried once, and then
// finds the winner's document.
func (s *Store) UpsertAdmin(ctx context.Context, a booking.Admin) (booking.Admin, error) {
	update := bson.D{
		{Key: "$set", Value: bson.D{
			{Key: "password_hash", Value: a.PasswordHash},
			{Key: "updated_at", Value: nanos(a.UpdatedAt)},
		}},
		{Key: "$setOnInsert", Value: bson.D{
			{Key: "_id", Value: a.ID},
			{Key: "created_at", Value: nanos(a.CreatedAt)},
		}},
	}
	opts := options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)
	var d adminDoc
	var err error
	for range 2 {
		err = s.col(colAdmins).FindOneAndUpdate(ctx, bson.D{{Key: "email", Value: a.Email}}, update, opts).Decode(&d)
		if !mongo.IsDuplicateKeyError(err) {
			break
		}
	}
	if err != nil {
		return booking.Admin{}, fmt.Errorf("mongo: upsert admin: %w", err)
	}
	return d.admin(), nil
}

// AdminByEmail returns the admin with a normalized email.
func (s *Store) AdminByEmail(ctx context.Context, email string) (booking.Admin, error) {
	var d adminDoc
	if err := s.col(colAdmins).FindOne(ctx, bson.D{{Key: "email", Value: email}}).Decode(&d); err != nil {
		return booking.Admin{}, notFound(err, booking.ErrAdminNotFound, "admin by email")
	}
	return d.admin(), nil
}

// AdminByID returns the admin with id.
func (s *Store) AdminByID(ctx context.Context, id string) (booking.Admin, error) {
	var d adminDoc
	if err := s.col(colAdmins).FindOne(ctx, byID(id)).Decode(&d); err != nil {
		return booking.Admin{}, notFound(err, booking.ErrAdminNotFound, "admin")
	}
	return d.admin(), nil
}

// ShowBookings lists a show's bookings, oldest first, through the show_state
// index.
func (s *Store) ShowBookings(ctx context.Context, showID string) ([]booking.Booking, error) {
	cur, err := s.col(colBookings).Find(ctx, bson.D{{Key: "show_id", Value: showID}},
		options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongo: show bookings: %w", err)
	}
	var docs []bookingDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: show bookings: %w", err)
	}
	list := make([]booking.Booking, 0, len(docs))
	for _, d := range docs {
		list = append(list, d.booking())
	}
	return list, nil
}

// MarkRefunded records, in one transaction, that refund refundID of a
// refund_due booking was made by by at now; booking.Booking.MarkRefunded
// decides. Two admins pressing at once conflict on the document, and the
// retried one finds it refunded.
func (s *Store) MarkRefunded(ctx context.Context, bookingID, refundID, by string, now time.Time) (booking.Booking, error) {
	b, err := inTx(ctx, s, func(ctx context.Context) (booking.Booking, error) {
		var d bookingDoc
		if err := s.col(colBookings).FindOne(ctx, byID(bookingID)).Decode(&d); err != nil {
			return booking.Booking{}, noDoc(err, booking.ErrBookingNotFound, "read booking")
		}
		b, err := d.booking().MarkRefunded(refundID, by, now)
		if err != nil {
			return booking.Booking{}, err
		}
		if _, err := s.col(colBookings).ReplaceOne(ctx, byID(b.ID), toBookingDoc(b)); err != nil {
			return booking.Booking{}, fmt.Errorf("update booking: %w", err)
		}
		return b, nil
	})
	if err != nil {
		var de *booking.Error
		if errors.As(err, &de) {
			return booking.Booking{}, err
		}
		return booking.Booking{}, wrap("mark refunded", err)
	}
	return b, nil
}
