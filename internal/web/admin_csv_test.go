package web

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

func TestCSVCellDefusesFormulas(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"=1+1", "'=1+1"},
		{"+31 20 555", "'+31 20 555"},
		{"-2", "'-2"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=cmd", "'\t=cmd"},
		{"\r=cmd", "'\r=cmd"},
		{"a=b", "a=b"},
		{"'quoted", "'quoted"},
	} {
		if got := csvCell(tc.in); got != tc.want {
			t.Errorf("csvCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBookingsCSVRoundTrips(t *testing.T) {
	at := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	b := booking.Booking{
		ID: "b1", State: booking.BookingRefunded, SeatIDs: []string{"A1", "A2"}, Amount: 36000, Currency: "INR",
		PaymentID: "p1", Owner: "visitor-123456789", CreatedAt: at, UpdatedAt: at,
		Reason: `=HYPERLINK("http://evil", "click"), and "quotes"` + "\nnext line", RefundedAt: at, RefundedBy: "+ops@example.com",
		RefundID: "re_1",
	}
	var buf strings.Builder
	if err := writeBookingsCSV(&buf, []booking.Booking{b}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.String())
	}
	want := [][]string{csvHeader, {"b1", "refunded", "A1 A2", "36000", "INR", "", "p1", "visitor-", "2026-03-14T12:00:00Z",
		"2026-03-14T12:00:00Z", "'" + b.Reason, "2026-03-14T12:00:00Z", "'+ops@example.com", "re_1"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
}
