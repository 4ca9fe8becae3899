package mongo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
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

// CreateAdmin inserts a new account; the unique index on email refuses a
// second one.
func (s *Store) CreateAdmin(ctx context.Context, a booking.Admin) error {
	_, err := s.col(colAdmins).InsertOne(ctx, adminDoc{
		ID: a.ID, Email: a.Email, PasswordHash: a.PasswordHash, Role: string(a.Role), SessionVersion: a.SessionVersion,
		CreatedAt: nanos(a.CreatedAt), UpdatedAt: nanos(a.UpdatedAt),
	})
	if mongo.IsDuplicateKeyError(err) {
		return booking.ErrAdminExists
	}
	if err != nil {
		return fmt.Errorf("mongo: create admin: %w", err)
	}
	return nil
}

// UpdateAdmin reads the account and counts the admins, lets
// booking.Admin.Apply decide, and writes, in one transaction.
func (s *Store) UpdateAdmin(ctx context.Context, u booking.AdminUpdate) (booking.Admin, error) {
	a, err := inTx(ctx, s, func(ctx context.Context) (booking.Admin, error) {
		a, admins, err := s.adminAndCount(ctx, u.ID)
		if err != nil {
			return booking.Admin{}, err
		}
		next, changed, err := a.Apply(u, admins)
		if err != nil || !changed {
			return a, err
		}
		if next.Role != a.Role {
			if err := s.guardAdmins(ctx); err != nil {
				return booking.Admin{}, err
			}
		}
		_, err = s.col(colAdmins).UpdateOne(ctx, byID(a.ID), bson.D{{Key: "$set", Value: bson.D{
			{Key: "password_hash", Value: next.PasswordHash},
			{Key: "role", Value: string(next.Role)},
			{Key: "session_version", Value: next.SessionVersion},
			{Key: "updated_at", Value: nanos(next.UpdatedAt)},
		}}})
		if err != nil {
			return booking.Admin{}, fmt.Errorf("update admin: %w", err)
		}
		return next, nil
	})
	if err != nil {
		return booking.Admin{}, wrap("update admin", err)
	}
	return a, nil
}

// DeleteAdmin deletes an account that booking.Admin.CheckDelete allows, in
// one transaction.
func (s *Store) DeleteAdmin(ctx context.Context, id string) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		a, admins, err := s.adminAndCount(ctx, id)
		if err != nil {
			return struct{}{}, err
		}
		if err := a.CheckDelete(admins); err != nil {
			return struct{}{}, err
		}
		if a.Role == booking.RoleAdmin {
			if err := s.guardAdmins(ctx); err != nil {
				return struct{}{}, err
			}
		}
		if _, err := s.col(colAdmins).DeleteOne(ctx, byID(id)); err != nil {
			return struct{}{}, fmt.Errorf("delete admin: %w", err)
		}
		return struct{}{}, nil
	})
	return wrap("delete admin", err)
}

func (s *Store) adminAndCount(ctx context.Context, id string) (booking.Admin, int, error) {
	var d adminDoc
	if err := s.col(colAdmins).FindOne(ctx, byID(id)).Decode(&d); err != nil {
		return booking.Admin{}, 0, noDoc(err, booking.ErrAdminNotFound, "read admin")
	}
	n, err := s.col(colAdmins).CountDocuments(ctx, isAdminRole)
	if err != nil {
		return booking.Admin{}, 0, fmt.Errorf("count admins: %w", err)
	}
	return d.admin(), int(n), nil
}

// guardAdmins writes every admin-role account inside a transaction that
// may take the admin role away from one. Under snapshot isolation two such
// transactions would otherwise each count the other's account and both
// commit, leaving no admin; writing the documents both counted makes them
// conflict, and the retried one counts again.
func (s *Store) guardAdmins(ctx context.Context) error {
	_, err := s.col(colAdmins).UpdateMany(ctx, isAdminRole, bson.D{{Key: "$inc", Value: bson.D{{Key: "guard", Value: 1}}}})
	if err != nil {
		return fmt.Errorf("guard admins: %w", err)
	}
	return nil
}

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
