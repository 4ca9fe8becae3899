package booking

import (
	"context"
	"time"
)

// OpenCheckout is a pending payment with an open checkout, and its hold.
type OpenCheckout struct {
	Payment Payment
	Hold    Hold
}

// CheckoutReader is what EndedCheckouts reads of a store.
type CheckoutReader interface {
	// OpenCheckouts lists up to limit pending payments with an open
	// checkout, oldest first (by CreatedAt, then id) after the one after
	// (its zero value: from the first), whose hold is no longer active or
	// was made at or before lapsedBefore, each with its hold.
	OpenCheckouts(ctx context.Context, lapsedBefore time.Time, after Payment, limit int) ([]OpenCheckout, error)
	// SeatsByID are the show's seats among ids, as stored.
	SeatsByID(ctx context.Context, showID string, ids []string) ([]Seat, error)
}

// endedCheckoutsScan bounds the candidates one EndedCheckouts reads.
const endedCheckoutsScan = 2000

// EndedCheckouts lists up to limit payments, oldest first, whose checkout
// should be closed at m (CheckoutEnded, decided on the payment, its hold
// and the hold's seats as stored). A lapsed hold whose seats are all its
// own is no ended checkout (its payment may still be rescued), so it pages
// on past such candidates, up to endedCheckoutsScan of them, rather than
// letting a page of them hide every ended one behind. It reads outside a
// transaction: it decides nothing that is written, and a checkout closed
// twice is no harm (Payments.Expire of a closed one is no error).
func EndedCheckouts(ctx context.Context, st CheckoutReader, m Moment, limit int) ([]Payment, error) {
	out := []Payment{}
	var after Payment
	for scanned := 0; len(out) < limit && scanned < endedCheckoutsScan; {
		batch, err := st.OpenCheckouts(ctx, m.LapsedBefore(), after, limit)
		if err != nil {
			return nil, err
		}
		for _, c := range batch {
			seats, err := st.SeatsByID(ctx, c.Hold.ShowID, c.Hold.SeatIDs)
			if err != nil {
				return nil, err
			}
			if CheckoutEnded(c.Payment, c.Hold, seats, m) && len(out) < limit {
				out = append(out, c.Payment)
			}
		}
		scanned += len(batch)
		if len(batch) < limit {
			break
		}
		after = batch[len(batch)-1].Payment
	}
	return out, nil
}
