package booking_test

import (
	"testing"
	"time"

	"boxoffice/internal/booking"
)

func TestNormalizeTicketCode(t *testing.T) {
	for in, want := range map[string]string{
		"7K3M-Q9PA":    "7K3M-Q9PA",
		"7k3mq9pa":     "7K3M-Q9PA",
		" 7K3M Q9PA ":  "7K3M-Q9PA",
		"7-k-3-m-q9pa": "7K3M-Q9PA",
		"OIL0-0000":    "0110-0000", // letters the alphabet leaves out read as digits
		"7K3M-Q9P":     "",
		"7K3M-Q9PAX":   "",
		"7K3M-Q9PU":    "", // U is not in the alphabet
		"":             "",
		"ÄÄÄÄ-ÄÄÄÄ":    "",
	} {
		if got := booking.NormalizeTicketCode(in); got != want {
			t.Errorf("NormalizeTicketCode(%q) = %q, want %q", in, got, want)
		}
	}
	for range 100 {
		c := booking.NewTicketCode()
		if got := booking.NormalizeTicketCode(c); got != c {
			t.Fatalf("a new code %q normalizes to %q", c, got)
		}
	}
}

// TestDecideCheckin is SPEC §11's one rule of the door, which a look-up
// and an admission share: each reason, and the order they are tested in.
func TestDecideCheckin(t *testing.T) {
	now := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	show := booking.Show{ID: "s1", StartsAt: now.Add(time.Hour), Movie: booking.Movie{RuntimeMin: 120}}
	cancelled := show
	cancelled.CancelledAt = now.Add(-time.Hour)
	tomorrow := show
	tomorrow.StartsAt = now.Add(24 * time.Hour)
	tomorrowCancelled := tomorrow
	tomorrowCancelled.CancelledAt = now.Add(-time.Hour)
	confirmed := booking.Booking{ID: "b1", ShowID: "s1", State: booking.BookingConfirmed, TicketCode: "AAAA-BBBB", SeatIDs: []string{"A1"}}
	admitted := confirmed
	admitted.AdmittedAt, admitted.AdmittedBy = now.Add(-time.Minute), "door@example.com"
	with := func(st booking.BookingState) booking.Booking { b := confirmed; b.State = st; return b }
	at := func(show string) booking.DoorCheck { return booking.DoorCheck{Show: show, Now: now} }
	confirm := func(show string) booking.DoorCheck { return booking.DoorCheck{Show: show, Now: now, Confirm: true} }
	tests := []struct {
		name   string
		b      booking.Booking
		show   booking.Show
		d      booking.DoorCheck
		result booking.CheckinResult
		reason booking.RefusalReason
	}{
		{"confirmed, at its show", confirmed, show, at("s1"), booking.CheckinValid, ""},
		{"confirmed, any show, in the window", confirmed, show, at(""), booking.CheckinValid, ""},
		{"admitted before", admitted, show, at("s1"), booking.CheckinAlready, ""},
		{"admitted before, any show", admitted, show, at(""), booking.CheckinAlready, ""},
		{"another show", confirmed, show, at("s2"), booking.CheckinRefused, booking.RefusedOtherShow},
		{"another show, confirmed", confirmed, show, confirm("s2"), booking.CheckinRefused, booking.RefusedOtherShow},
		{"admitted before, at another show", admitted, show, at("s2"), booking.CheckinRefused, booking.RefusedOtherShow},
		{"pending", with(booking.BookingPending), show, at("s1"), booking.CheckinRefused, booking.RefusedNotConfirmed},
		{"failed", with(booking.BookingFailed), show, at("s1"), booking.CheckinRefused, booking.RefusedNotConfirmed},
		{"refund due", with(booking.BookingRefundDue), show, at("s1"), booking.CheckinRefused, booking.RefusedRefunded},
		{"refunded", with(booking.BookingRefunded), show, at("s1"), booking.CheckinRefused, booking.RefusedRefunded},
		{"cancelled show", with(booking.BookingRefundDue), cancelled, at("s1"), booking.CheckinRefused, booking.RefusedCancelled},

		// not_today: only when no show is chosen, and confirm admits it.
		{"tomorrow, any show", confirmed, tomorrow, at(""), booking.CheckinRefused, booking.RefusedNotToday},
		{"tomorrow, any show, confirmed", confirmed, tomorrow, confirm(""), booking.CheckinValid, ""},
		{"tomorrow, chosen", confirmed, tomorrow, at("s1"), booking.CheckinValid, ""},
		{"tomorrow, admitted before", admitted, tomorrow, at(""), booking.CheckinRefused, booking.RefusedNotToday},
		{"tomorrow, admitted before, confirmed", admitted, tomorrow, confirm(""), booking.CheckinAlready, ""},
		{"ended", confirmed, show, booking.DoorCheck{Now: show.StartsAt.Add(2 * time.Hour)}, booking.CheckinRefused, booking.RefusedNotToday},
		{"two hours ahead", confirmed, show, booking.DoorCheck{Now: show.StartsAt.Add(-booking.DoorAhead)}, booking.CheckinRefused, booking.RefusedNotToday},
		{"just under two hours ahead", confirmed, show, booking.DoorCheck{Now: show.StartsAt.Add(-booking.DoorAhead + time.Nanosecond)}, booking.CheckinValid, ""},

		// The order: unknown, cancelled, refunded, not_confirmed,
		// other_show, not_today, already.
		{"cancelled before refunded", with(booking.BookingRefunded), cancelled, at("s2"), booking.CheckinRefused, booking.RefusedCancelled},
		{"cancelled before not_today", confirmed, tomorrowCancelled, at(""), booking.CheckinRefused, booking.RefusedCancelled},
		{"refunded before not_confirmed and other_show", with(booking.BookingRefundDue), show, at("s2"), booking.CheckinRefused, booking.RefusedRefunded},
		{"refunded before not_today", with(booking.BookingRefunded), tomorrow, at(""), booking.CheckinRefused, booking.RefusedRefunded},
		{"not_confirmed before other_show", with(booking.BookingPending), show, at("s2"), booking.CheckinRefused, booking.RefusedNotConfirmed},
		{"not_confirmed before not_today", with(booking.BookingFailed), tomorrow, at(""), booking.CheckinRefused, booking.RefusedNotConfirmed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := booking.DecideCheckin(tt.b, tt.show, tt.d)
			if c.Result != tt.result || c.Reason != tt.reason {
				t.Errorf("DecideCheckin = %q %q, want %q %q", c.Result, c.Reason, tt.result, tt.reason)
			}
			got, changed := booking.Admit(tt.b, tt.show, tt.d, "me@example.com")
			wantAdmit := tt.result == booking.CheckinValid
			if changed != wantAdmit {
				t.Fatalf("Admit changed = %v, want %v", changed, wantAdmit)
			}
			switch {
			case wantAdmit && (got.Result != booking.CheckinAdmitted || !got.Booking.AdmittedAt.Equal(tt.d.Now) || got.Booking.AdmittedBy != "me@example.com"):
				t.Errorf("Admit = %+v; want admitted at %v by me", got, tt.d.Now)
			case !wantAdmit && (got.Result != c.Result || got.Reason != c.Reason || got.Booking.AdmittedBy != tt.b.AdmittedBy):
				t.Errorf("a refused Admit = %q %q by %q; want DecideCheckin's answer, nothing admitted", got.Result, got.Reason, got.Booking.AdmittedBy)
			}
		})
	}
}

func TestInDoorWindow(t *testing.T) {
	now := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		starts  time.Duration // from now
		runtime int
		want    bool
	}{
		{"starts in an hour", time.Hour, 120, true},
		{"starts in two hours", 2 * time.Hour, 120, false},
		{"running", -time.Hour, 120, true},
		{"ended", -2 * time.Hour, 120, false},
		{"runtime unknown: three hours", -170 * time.Minute, 0, true},
		{"tomorrow", 24 * time.Hour, 120, false},
	} {
		sh := booking.Show{ID: "s", StartsAt: now.Add(tc.starts), Movie: booking.Movie{RuntimeMin: tc.runtime}}
		if got := booking.InDoorWindow(sh, now); got != tc.want {
			t.Errorf("%s: InDoorWindow = %v, want %v", tc.name, got, tc.want)
		}
	}
	sh := booking.Show{ID: "s", StartsAt: now.Add(time.Hour), CancelledAt: now}
	if booking.InDoorWindow(sh, now) {
		t.Error("a cancelled show is in the door's window")
	}
}

func TestCountAdmitted(t *testing.T) {
	at := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	list := []booking.Booking{
		{State: booking.BookingConfirmed, SeatIDs: []string{"A1", "A2"}, AdmittedAt: at},
		{State: booking.BookingConfirmed, SeatIDs: []string{"B1"}},
		{State: booking.BookingRefundDue, SeatIDs: []string{"C1", "C2", "C3"}, AdmittedAt: at},
		{State: booking.BookingFailed, SeatIDs: []string{"D1"}},
	}
	if got, want := booking.CountAdmitted(list), (booking.DoorCount{Admitted: 5, Booked: 3}); got != want {
		t.Errorf("CountAdmitted = %+v, want %+v", got, want)
	}
}

func TestAdminApply(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	a := booking.Admin{ID: "a", Email: "a@example.com", PasswordHash: "h1", Role: booking.RoleAdmin, CreatedAt: at, UpdatedAt: at}
	later := at.Add(time.Hour)
	if got, changed, err := a.Apply(booking.AdminUpdate{ID: "a", PasswordHash: "h1", Role: booking.RoleAdmin, At: later}, 1); err != nil || changed || got != a {
		t.Errorf("the same password and role: %+v, %v, %v; want no change", got, changed, err)
	}
	got, changed, err := a.Apply(booking.AdminUpdate{ID: "a", PasswordHash: "h2", At: later}, 1)
	if err != nil || !changed || got.PasswordHash != "h2" || got.SessionVersion != 1 || !got.UpdatedAt.Equal(later) {
		t.Errorf("a new password: %+v, %v, %v; want it, version 1, updated", got, changed, err)
	}
	if _, _, err := a.Apply(booking.AdminUpdate{ID: "a", Role: booking.RoleStaff, At: later}, 1); err != booking.ErrLastAdmin {
		t.Errorf("demoting the last admin: %v, want ErrLastAdmin", err)
	}
	if got, _, err := a.Apply(booking.AdminUpdate{ID: "a", Role: booking.RoleStaff, At: later}, 2); err != nil || got.Role != booking.RoleStaff || got.SessionVersion != 1 {
		t.Errorf("demoting one of two admins: %+v, %v", got, err)
	}
	staff := a
	staff.Role = booking.RoleStaff
	if err := staff.CheckDelete(1); err != nil {
		t.Errorf("deleting staff with one admin left: %v", err)
	}
	if err := a.CheckDelete(1); err != booking.ErrLastAdmin {
		t.Errorf("deleting the last admin: %v, want ErrLastAdmin", err)
	}
	if _, err := booking.ParseRole("owner"); err == nil {
		t.Error(`ParseRole("owner") succeeded`)
	}
}
