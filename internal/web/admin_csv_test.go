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

// TestBookingsCSVRoundTrips (issue 29, item 8): a row gives the amount in
// major units with its currency (250.00,INR), the buyer's email, times in
// the theatre's zone with their offset, the admission, and defuses every
// cell a spreadsheet would run as a formula.
func TestBookingsCSVRoundTrips(t *testing.T) {
	at := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	b := booking.Booking{
		ID: "b1", State: booking.BookingRefunded, SeatIDs: []string{"A1", "A2"}, Amount: 36000, Currency: "INR",
		PaymentID: "p1", Owner: "visitor-123456789", CreatedAt: at, UpdatedAt: at, Email: "=cmd@example.com",
		AdmittedAt: at.Add(time.Hour), AdmittedBy: "door@example.com", Channel: booking.ChannelOnline,
		Reason: `=HYPERLINK("http://evil", "click"), and "quotes"` + "\nnext line", RefundedAt: at, RefundedBy: "+ops@example.com",
		RefundID: "re_1",
	}
	var buf strings.Builder
	if err := writeBookingsCSV(&buf, []booking.Booking{b}, kolkata); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.String())
	}
	want := [][]string{csvHeader, {"b1", "refunded", "online", "A1 A2", "360.00", "INR", "", "'=cmd@example.com", "p1", "visitor-",
		"2026-03-14T17:30:00+05:30", "2026-03-14T17:30:00+05:30", "2026-03-14T18:30:00+05:30", "door@example.com",
		"'" + b.Reason, "2026-03-14T17:30:00+05:30", "'+ops@example.com", "re_1",
		"A1 standard 180.00; A2 standard 180.00"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
	wantHeader := []string{"booking_id", "state", "channel", "seats", "amount", "currency", "ticket_code", "email", "payment_id", "visitor",
		"created_at", "updated_at", "admitted_at", "admitted_by", "reason", "refunded_at", "refunded_by", "refund_id", "tickets"}
	if diff := cmp.Diff(wantHeader, rows[0]); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
}

// TestBookingsCSVTickets: each booking's row lists its seats as sold, the
// type's id and the price in major units (SPEC §15, §17).
func TestBookingsCSVTickets(t *testing.T) {
	at := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	bookings := []booking.Booking{
		{ID: "b1", State: booking.BookingConfirmed, SeatIDs: []string{"A1", "A2", "D2"}, Amount: 52100, Currency: "INR", CreatedAt: at, UpdatedAt: at,
			Tickets: []booking.SeatTicket{
				{SeatID: "A1", Type: "adult", Name: "Adult", Price: 18000},
				{SeatID: "A2", Type: "child", Name: "Child", Price: 9050},
				{SeatID: "D2", Type: "comp", Name: "Comp", Price: 0},
			}},
		{ID: "b2", State: booking.BookingConfirmed, SeatIDs: []string{"B1"}, Amount: 1500, Currency: "JPY", CreatedAt: at, UpdatedAt: at,
			Tickets: []booking.SeatTicket{{SeatID: "B1", Type: "adult", Price: 1500}}},
		// Stored before types: standard, the amount shared out.
		{ID: "b3", State: booking.BookingConfirmed, SeatIDs: []string{"C1", "C2"}, Amount: 25001, Currency: "INR", CreatedAt: at, UpdatedAt: at},
	}
	var buf strings.Builder
	if err := writeBookingsCSV(&buf, bookings, time.UTC); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.String())
	}
	col := len(csvHeader) - 1
	if csvHeader[col] != "tickets" {
		t.Fatalf("the last column is %q, want tickets", csvHeader[col])
	}
	want := []string{
		"A1 adult 180.00; A2 child 90.50; D2 comp 0.00",
		"B1 adult 1500",
		"C1 standard 125.01; C2 standard 125.00",
	}
	for i, w := range want {
		if got := rows[i+1][col]; got != w {
			t.Errorf("%s's tickets %q, want %q", rows[i+1][0], got, w)
		}
	}
}
