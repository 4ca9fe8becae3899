package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// errRunAgain is the transient error rerun makes the first run of a step
// end with.
var errRunAgain = errors.New("transient error: the transaction runs again")

// rerun is a Transactor on a real store that runs each step twice at one
// instant, as MongoDB's WithTransaction does after a transient error: the
// first run's writes are rolled back, and the second run commits.
type rerun struct {
	*Store
	runs int
}

func (r *rerun) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	now := clock()
	at := func() time.Time { return now }
	err := r.Store.Atomically(ctx, at, func(tx booking.Tx) error {
		r.runs++
		if err := step(tx); err != nil {
			return err
		}
		return errRunAgain
	})
	if !errors.Is(err, errRunAgain) {
		return err
	}
	r.runs++
	return r.Store.Atomically(ctx, at, step)
}

// paymentSteps runs every payment step once on st, with the same ids and
// instants whatever st is, and returns what each answered and what the
// store holds afterwards.
func paymentSteps(t *testing.T, s *Store, st booking.Transactor) []any {
	t.Helper()
	ctx := context.Background()
	show, seats := testShow("retry", 2, 4)
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	var out []any
	record := func(what string, v ...any) {
		t.Helper()
		if err, ok := v[len(v)-1].(error); ok && err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out = append(out, v...)
	}
	m := at(0)
	hold := func(id string, m booking.Moment, seat string) {
		h := booking.Hold{ID: id, ShowID: show.ID, Owner: "o-" + id, SeatIDs: []string{seat}}
		record("hold "+id, booking.HoldSeatsStep(ctx, st, m.Clock(), h, m.Rules))
	}
	start := func(n string) booking.PaymentStart {
		return booking.PaymentStart{PaymentID: "p" + n, BookingID: "b" + n, Key: "k" + n, Email: n + "@example.com"}
	}
	event := func(id string, p booking.Payment, amount booking.Money) booking.PaymentEvent {
		return booking.PaymentEvent{ID: id, Type: booking.EventPaymentSucceeded, PaymentID: p.ID, HoldID: p.HoldID,
			Amount: amount, Currency: p.Currency, Charged: true, ChargeRef: "ch_" + id}
	}

	// Paid: a checkout attempt, its ref, a lookup once stuck, the success.
	hold("h1", m, "A1")
	p, b, err := booking.StartPaymentStep(ctx, st, m.Clock(), "h1", "o-h1", start("1"), m.Rules)
	record("start payment", p, b, err)
	p, moved, err := booking.BeginCheckoutStep(ctx, st, m.Clock(), p.ID, 0, booking.CheckoutLifetime)
	record("begin checkout", p, moved, err)
	record("set checkout ref", booking.SetCheckoutRefStep(ctx, st, m.Clock(), p.ID, 1, "cs_1"))
	stuck := at(booking.StuckAfter)
	claimed, err := booking.ClaimLookupStep(ctx, st, stuck.Clock(), p.ID)
	record("claim lookup", claimed, err)
	settled, err := booking.SettlePaymentStep(ctx, st, stuck.Clock(), event("evt_1", p, p.Amount), "TICK-0001", stuck.Rules)
	record("settle", settled, err)
	again, err := booking.SettlePaymentStep(ctx, st, stuck.Clock(), event("evt_1", p, p.Amount), "TICK-0002", stuck.Rules)
	record("settle again", again, err)

	// Due a refund (another amount was taken), refunded, the refund
	// failed, the checkout closed.
	hold("h2", m, "B1")
	p2, _, err := booking.StartPaymentStep(ctx, st, m.Clock(), "h2", "o-h2", start("2"), m.Rules)
	record("start payment 2", p2, err)
	due, err := booking.SettlePaymentStep(ctx, st, m.Clock(), event("evt_2", p2, p2.Amount+1), "TICK-0003", m.Rules)
	record("settle 2", due, err)
	later := at(time.Hour)
	refunded, err := booking.MarkRefundedStep(ctx, st, later.Clock(), "b2", "re_1", "ops@example.com")
	record("mark refunded", refunded, err)
	failed, err := booking.SettleRefundStep(ctx, st, later.Clock(), booking.RefundEvent{ID: "evt_3", RefundID: "re_1", BookingID: "b2", Reason: "lost card"})
	record("settle refund", failed, err)
	record("close checkout", booking.CloseCheckoutStep(ctx, st, later.Clock(), "p2"))

	for _, id := range []string{"p1", "p2"} {
		p, err := s.Payment(ctx, id)
		record("payment "+id, p, err)
	}
	for _, id := range []string{"b1", "b2"} {
		b, err := s.Booking(ctx, id)
		record("booking "+id, b, err)
	}
	for _, id := range []string{"b1.confirmed", "b2.refund_due", "b2.refunded"} {
		mail, err := s.Mail(ctx, id)
		record("mail "+id, mail, err)
	}
	all, err := s.Seats(ctx, show.ID)
	record("seats", all, err)
	return out
}

// TestPaymentStepsSafeToRunAgain: every payment step, run a second time at
// the same instant after its first run was rolled back (MongoDB's retry
// after a transient error), answers and writes what one run does.
func TestPaymentStepsSafeToRunAgain(t *testing.T) {
	once, _ := mustOpen(t)
	want := paymentSteps(t, once, once)

	twice, _ := mustOpen(t)
	r := &rerun{Store: twice}
	got := paymentSteps(t, twice, r)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps run twice (-once +twice):\n%s", diff)
	}
	if r.runs != 2*13 {
		t.Errorf("%d runs of the steps, want each of the 13 steps run twice", r.runs)
	}
}
