package mongo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// adminDoc is an account; the admins collection has a unique index on
// email. Documents written before roles existed have no role and are
// admins.
type adminDoc struct {
	ID             string `bson:"_id"`
	Email          string `bson:"email"`
	PasswordHash   string `bson:"password_hash"`
	Role           string `bson:"role,omitempty"`
	SessionVersion int64  `bson:"session_version"`
	CreatedAt      int64  `bson:"created_at"`
	UpdatedAt      int64  `bson:"updated_at"`
}

func (d adminDoc) admin() booking.Admin {
	role := booking.Role(d.Role)
	if role == "" {
		role = booking.RoleAdmin
	}
	return booking.Admin{
		ID: d.ID, Email: d.Email, PasswordHash: d.PasswordHash, Role: role, SessionVersion: d.SessionVersion,
		CreatedAt: fromNanos(d.CreatedAt), UpdatedAt: fromNanos(d.UpdatedAt),
	}
}

// isAdminRole selects the accounts with the admin role, those from before
// roles included.
var isAdminRole = bson.D{{Key: "role", Value: bson.D{{Key: "$ne", Value: string(booking.RoleStaff)}}}}

// ListAdmins lists the accounts by email.
func (s *Store) ListAdmins(ctx context.Context) ([]booking.Admin, error) {
	cur, err := s.col(colAdmins).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "email", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongo: list admins: %w", err)
	}
	var docs []adminDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: list admins: %w", err)
	}
	list := make([]booking.Admin, 0, len(docs))
	for _, d := range docs {
		list = append(list, d.admin())
	}
	return list, nil
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

// RefundQueue lists the refund_due bookings of every show, the longest
// waiting first, through refund_due (partial: refund_due documents alone,
// keyed in the order listed), so a page reads only its documents.
func (s *Store) RefundQueue(ctx context.Context, limit, offset int) ([]booking.Booking, error) {
	opts := options.Find().SetSort(refundQueueSort).SetHint(refundDueIndex)
	if offset > 0 {
		opts.SetSkip(int64(offset))
	}
	if limit > 0 {
		opts.SetLimit(int64(limit))
	}
	cur, err := s.col(colBookings).Find(ctx, refundQueueFilter, opts)
	if err != nil {
		return nil, fmt.Errorf("mongo: refund queue: %w", err)
	}
	var docs []bookingDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: refund queue: %w", err)
	}
	list := make([]booking.Booking, 0, len(docs))
	for _, d := range docs {
		list = append(list, d.booking())
	}
	return list, nil
}

// refundQueueFilter and refundQueueSort are the refund queue's query
// (RefundQueue, TestRefundQueuePlan): the filter is refundDueIndex's
// partial filter, which its hint needs.
var (
	refundQueueFilter = bson.D{{Key: "state", Value: string(booking.BookingRefundDue)}}
	refundQueueSort   = bson.D{{Key: "updated_at", Value: 1}, {Key: "_id", Value: 1}}
)

// refundDueIndex is bookings' partial index of refund_due documents, by
// updated_at and _id: the site's refund queue (RefundQueue).
const refundDueIndex = "refund_due"
