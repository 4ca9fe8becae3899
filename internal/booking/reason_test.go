package booking_test

import (
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

var english = i18n.For(i18n.English)

// TestReasonRoundTrip: every reason a booking stores reads back as the
// same parts, whatever its arguments hold; the stored form has no raw
// separator inside a value.
func TestReasonRoundTrip(t *testing.T) {
	tricky := "a;b&c=d%e+f ?g, हिन्दी"
	for _, stored := range []string{
		booking.ReasonShowCancelled,
		booking.ReasonPaymentDeclined,
		booking.ReasonCheckoutExpired,
		booking.ReasonPaymentReplaced,
		booking.AmountMismatchReason(25000, "inr", 45000, "INR"),
		booking.SeatsTakenReason([]string{"A2", "A10"}),
		booking.WithRefundFailed(booking.ReasonShowCancelled, tricky),
		booking.WithRefundFailed("", tricky),
		booking.WithRefundFailed("Some old English; with = & signs", "lost_card"),
	} {
		parts, ok := booking.ParseReason(stored)
		if !ok {
			t.Errorf("ParseReason(%q) is not a reason", stored)
			continue
		}
		if again := booking.EncodeReasons(parts...); again != stored {
			t.Errorf("ParseReason(%q) encodes back as %q", stored, again)
		}
	}
	stored := booking.WithRefundFailed(booking.ReasonShowCancelled, tricky)
	if want := "show_cancelled;refund_failed?provider_reason="; !strings.HasPrefix(stored, want) || strings.ContainsAny(stored[len(want):], ";& ") {
		t.Errorf("WithRefundFailed stored %q; want %s then an escaped value", stored, want)
	}
	parts, _ := booking.ParseReason(stored)
	if len(parts) != 2 || parts[1].Args[0].Value != tricky {
		t.Errorf("ParseReason(%q) = %+v; want the provider's reason %q back", stored, parts, tricky)
	}
}

// TestParseReasonRefusesText: text that is not codes with exactly their
// arguments is no reason, and ReasonText shows it as it is.
func TestParseReasonRefusesText(t *testing.T) {
	for _, s := range []string{
		"",
		"Something an admin typed.",
		"show",
		"show_cancelled;",
		"show_cancelled?",
		"show_cancelled?extra=1",
		"refund_failed",
		"refund_failed?provider_reason=%zz",
		"refund_failed?provider_reason=a&provider_reason=b",
		"refund_failed?why=a",
		"seats_taken?count=two&seats=A1",
		"seats_taken?count=1",
		"amount_mismatch?paid=25000&price=45000+INR",
		"no_such_code",
		"The payment took ₹250, but this booking costs ₹450. Nothing was booked; your money will be refunded.",
	} {
		if parts, ok := booking.ParseReason(s); ok {
			t.Errorf("ParseReason(%q) = %+v; want no reason", s, parts)
		}
		if _, legacy := booking.LegacyReason(s); !legacy {
			if got := booking.ReasonText(english, s); got != s {
				t.Errorf("ReasonText(%q) = %q; want it as it is", s, got)
			}
		}
	}
	// A value as SQLite's migration writes it: "+" for a space, other
	// characters unescaped but for the separators.
	parts, ok := booking.ParseReason("refund_failed?provider_reason=card+declined:+50%25,+हिन्दी")
	if !ok || parts[0].Args[0].Value != "card declined: 50%, हिन्दी" {
		t.Errorf("a minimally escaped value: %+v, %v", parts, ok)
	}
}

// TestReasonTextEnglish: each code reads in English as the reason's text
// did before codes, and an English reason stored before codes reads the
// same.
func TestReasonTextEnglish(t *testing.T) {
	for _, tc := range []struct{ stored, want string }{
		{booking.ReasonShowCancelled, "The show was cancelled."},
		{"show cancelled", "The show was cancelled."},
		{booking.ReasonPaymentDeclined, "The payment was declined."},
		{booking.ReasonCheckoutExpired, "Checkout expired: the payment was not made before the checkout ended, and your hold has ended. Nothing was charged."},
		{booking.ReasonPaymentReplaced, "Replaced: the ticket types were changed at checkout, so this payment was replaced by a new one. Nothing was charged for it."},
		{booking.AmountMismatchReason(25000, "INR", 10000000, "INR"), "The payment took ₹250, but this booking costs ₹1,00,000. Nothing was booked; your money will be refunded."},
		{booking.SeatsTakenReason([]string{"A10"}), "Your payment arrived after your hold on seat A10 had ended, and by then it was no longer free. Nothing was booked; your money will be refunded."},
		{booking.SeatsTakenReason([]string{"A2", "A10"}), "Your payment arrived after your hold on seats A2, A10 had ended, and by then they were no longer free. Nothing was booked; your money will be refunded."},
		{booking.WithRefundFailed(booking.ReasonShowCancelled, "lost_card"), "The show was cancelled. (A refund failed at the payment provider: lost_card; it is due again.)"},
		{booking.WithRefundFailed("Kept as typed.", ""), "Kept as typed. (A refund failed at the payment provider: unknown; it is due again.)"},
	} {
		if got := booking.ReasonText(english, tc.stored); got != tc.want {
			t.Errorf("ReasonText(%q) = %q; want %q", tc.stored, got, tc.want)
		}
	}
}

// TestReasonTextTranslated: a reason reads in the language asked, its
// arguments in it.
func TestReasonTextTranslated(t *testing.T) {
	stored := booking.WithRefundFailed(booking.ReasonShowCancelled, "expired_or_canceled_card")
	for _, l := range []i18n.Lang{i18n.Hindi, i18n.Tamil} {
		got := booking.ReasonText(i18n.For(l), stored)
		if !strings.Contains(got, "expired_or_canceled_card") || strings.Contains(got, "refund failed") || strings.Contains(got, "cancelled") {
			t.Errorf("%s: ReasonText(%q) = %q; want it in %s with the provider's reason", l, stored, got, l)
		}
	}
	if got := booking.ReasonText(i18n.For(i18n.Hindi), booking.SeatsTakenReason([]string{"A2", "A10"})); !strings.Contains(got, "A2, A10") || strings.Contains(got, "seats") {
		t.Errorf("hi: seats taken = %q", got)
	}
}

// TestWithRefundFailed: a new failure replaces the one a reason named, as
// the English note did; an old English reason keeps its text less its old
// note.
func TestWithRefundFailed(t *testing.T) {
	once := booking.WithRefundFailed(booking.ReasonShowCancelled, "first")
	twice := booking.WithRefundFailed(once, "second")
	if want := "show_cancelled;refund_failed?provider_reason=second"; twice != want {
		t.Errorf("second failure: %q; want %q", twice, want)
	}
	old := "Something old. (A refund failed at the payment provider: first; it is due again.)"
	if got, want := booking.WithRefundFailed(old, "second"), "text?text=Something+old.;refund_failed?provider_reason=second"; got != want {
		t.Errorf("after an old English failure: %q; want %q", got, want)
	}
	if got, want := booking.WithRefundFailed("show cancelled", strings.Repeat("x", 100)), "show_cancelled;refund_failed?provider_reason="+strings.Repeat("x", 80)+"%E2%80%A6"; got != want {
		t.Errorf("a long reason: %q; want %q", got, want)
	}
	for stored, want := range map[string]bool{
		twice: true, booking.ReasonShowCancelled: true, "show cancelled": true,
		"show cancelled (A refund failed at the payment provider: x; it is due again.)": true,
		booking.ReasonPaymentDeclined: false, "Show was cancelled": false, "": false,
	} {
		if got := booking.ReasonIs(stored, booking.ReasonShowCancelled); got != want {
			t.Errorf("ReasonIs(%q, show_cancelled) = %v, want %v", stored, got, want)
		}
	}
	b := booking.Booking{ID: "b1", State: booking.BookingRefunded, RefundID: "re_1", Reason: booking.ReasonShowCancelled}
	nb, changed := b.RefundFailed("re_1", "lost_card", time.Now())
	if !changed || nb.Reason != "show_cancelled;refund_failed?provider_reason=lost_card" || !booking.ReasonIs(nb.Reason, booking.ReasonShowCancelled) {
		t.Errorf("RefundFailed: %v %q", changed, nb.Reason)
	}
}

// TestLegacyReason: the English reasons stored before codes, as the
// stores' migrations convert them; the rest stays text.
func TestLegacyReason(t *testing.T) {
	note := func(why string) string {
		return " (A refund failed at the payment provider: " + why + "; it is due again.)"
	}
	for _, tc := range []struct {
		text, want string
		ok         bool
	}{
		{"show cancelled", "show_cancelled", true},
		{"The payment was declined.", "payment_declined", true},
		{"Checkout expired: the payment was not made before the checkout ended, and your hold has ended. Nothing was charged.", "checkout_expired", true},
		{"Replaced: the ticket types were changed at checkout, so this payment was replaced by a new one. Nothing was charged for it.", "payment_replaced", true},
		{"Your payment arrived after your hold on seat A10 had ended, and by then it was no longer free. Nothing was booked; your money will be refunded.", "seats_taken?count=1&seats=A10", true},
		{"Your payment arrived after your hold on seats A2, A10 had ended, and by then they were no longer free. Nothing was booked; your money will be refunded.", "seats_taken?count=2&seats=A2%2C+A10", true},
		{"show cancelled" + note("expired_or_canceled_card"), "show_cancelled;refund_failed?provider_reason=expired_or_canceled_card", true},
		{note("lost card"), "refund_failed?provider_reason=lost+card", true},
		{"Odd; text" + note("x"), "text?text=Odd%3B+text;refund_failed?provider_reason=x", true},
		{"The payment took ₹250, but this booking costs ₹450. Nothing was booked; your money will be refunded.", "", false},
		{"show cancelled.", "", false},
		{"Show Cancelled", "", false},
		{"", "", false},
	} {
		got, ok := booking.LegacyReason(tc.text)
		if got != tc.want || ok != tc.ok {
			t.Errorf("LegacyReason(%q) = %q, %v; want %q, %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}
