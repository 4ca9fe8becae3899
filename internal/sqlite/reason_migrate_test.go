package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

// TestReasonCodesBeforeMigration41: the English reasons a file made before
// reason codes (0041) stored on bookings and payment events become their
// codes, read in English as before and as booking.LegacyReason converts
// them; text that is no known reason stays as it is.
func TestReasonCodesBeforeMigration41(t *testing.T) {
	const (
		note = " (A refund failed at the payment provider: "
		end  = "; it is due again.)"
	)
	mismatch := "The payment took ₹250, but this booking costs ₹450. Nothing was booked; your money will be refunded."
	for _, tc := range []struct {
		old, want string
	}{
		{"show cancelled", "show_cancelled"},
		{"The payment was declined.", "payment_declined"},
		{"Checkout expired: the payment was not made before the checkout ended, and your hold has ended. Nothing was charged.", "checkout_expired"},
		{"Replaced: the ticket types were changed at checkout, so this payment was replaced by a new one. Nothing was charged for it.", "payment_replaced"},
		{"Your payment arrived after your hold on seat A10 had ended, and by then it was no longer free. Nothing was booked; your money will be refunded.",
			"seats_taken?count=1&seats=A10"},
		{"Your payment arrived after your hold on seats A2, A10, B1 had ended, and by then they were no longer free. Nothing was booked; your money will be refunded.",
			"seats_taken?count=3&seats=A2,+A10,+B1"},
		{"show cancelled" + note + "expired_or_canceled_card" + end, "show_cancelled;refund_failed?provider_reason=expired_or_canceled_card"},
		{"show cancelled" + note + "card declined: 50% & more; or=+less" + end,
			"show_cancelled;refund_failed?provider_reason=card+declined:+50%25+%26+more%3B+or%3D%2Bless"},
		{note + "unknown" + end, "refund_failed?provider_reason=unknown"},
		{"Your payment arrived after your hold on seat A1 had ended, and by then it was no longer free. Nothing was booked; your money will be refunded." + note + "lost" + end,
			"seats_taken?count=1&seats=A1;refund_failed?provider_reason=lost"},
		{mismatch + note + "lost" + end, "text?text=The+payment+took+₹250,+but+this+booking+costs+₹450.+Nothing+was+booked%3B+your+money+will+be+refunded.;refund_failed?provider_reason=lost"},
		{mismatch, mismatch},
		{"Refunded by hand; see ticket 12", "Refunded by hand; see ticket 12"},
		{"show cancelled.", "show cancelled."},
		{"show cancelled" + note + "no end", "show cancelled" + note + "no end"},
		{"", ""},
	} {
		t.Run(tc.want, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "v39.db")
			db := openAtVersion(t, path, 39)
			for _, q := range []struct {
				sql  string
				args []any
			}{
				{`PRAGMA foreign_keys = OFF`, nil},
				{`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, reason, created_at, updated_at, channel)
					VALUES ('b1', 'h1', 'p1', 'o', 's1', 'A1', 100, 'INR', 'refund_due', ?, 1000, 9000, 'online')`, []any{tc.old}},
				{`INSERT INTO payment_events (id, payment_id, type, effect, reason, received_at)
					VALUES ('e1', 'p1', 'payment.succeeded', 'refund_due', ?, 2500),
					       ('e2', 'p1', 'payment.failed', 'ignored', 'payment already succeeded; payment.failed ignored', 2600)`, []any{tc.old}},
			} {
				if _, err := db.Exec(q.sql, q.args...); err != nil {
					t.Fatalf("%s: %v", q.sql, err)
				}
			}
			db.Close()

			s := reopen(t, path)
			b, err := s.Booking(ctx, "b1")
			if err != nil || b.Reason != tc.want {
				t.Errorf("booking's reason %q, %v; want %q", b.Reason, err, tc.want)
			}
			events := map[string]string{}
			rows, err := s.read.QueryContext(ctx, `SELECT id, reason FROM payment_events`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var id, reason string
				if err := rows.Scan(&id, &reason); err != nil {
					t.Fatal(err)
				}
				events[id] = reason
			}
			if events["e1"] != tc.want || events["e2"] != "payment already succeeded; payment.failed ignored" {
				t.Errorf("events' reasons %q; want e1's %q, e2's as it was", events, tc.want)
			}
			// It reads in English as the old text did, and as the Go
			// conversion (MongoDB's) stores it, up to escaping.
			en := i18n.For(i18n.English)
			if got, want := booking.ReasonText(en, b.Reason), booking.ReasonText(en, tc.old); got != want {
				t.Errorf("the code reads %q; the old text %q", got, want)
			}
			parts, coded := booking.ParseReason(b.Reason)
			goForm, legacy := booking.LegacyReason(tc.old)
			goParts, _ := booking.ParseReason(goForm)
			switch {
			case coded != legacy:
				t.Errorf("migrated to a code: %v; booking.LegacyReason converts it: %v", coded, legacy)
			case coded && booking.EncodeReasons(parts...) != booking.EncodeReasons(goParts...):
				t.Errorf("migrated to %q; booking.LegacyReason gives %q", booking.EncodeReasons(parts...), goForm)
			}
		})
	}
}
