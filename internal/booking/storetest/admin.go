package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var adminTests = []test{
	{"CreateAndLookup", testAdminCreateAndLookup},
	{"Update", testAdminUpdate},
	{"Delete", testAdminDelete},
	{"OccupancyListAgreesWithGoRule", testListOccupancyAgreesWithGoRule},
	{"OccupancyListFilters", testListOccupancyFilters},
	{"MarkRefunded", testMarkRefunded},
	{"RefundQueue", testRefundQueue},
	{"CallbackLog", testCallbackLog},
}

func newAdmin(t *testing.T, s store, email string, role booking.Role) booking.Admin {
	t.Helper()
	a := booking.Admin{ID: booking.NewID(), Email: email, PasswordHash: "hash-" + email, Role: role, CreatedAt: base, UpdatedAt: base}
	if err := s.CreateAdmin(context.Background(), a); err != nil {
		t.Fatalf("CreateAdmin(%s): %v", email, err)
	}
	return a
}

func wantAdmin(t *testing.T, s store, want booking.Admin) {
	t.Helper()
	byID, err := s.AdminByID(context.Background(), want.ID)
	if err != nil {
		t.Fatalf("AdminByID: %v", err)
	}
	if diff := cmp.Diff(want, byID); diff != "" {
		t.Errorf("AdminByID (-want +got):\n%s", diff)
	}
	byEmail, err := s.AdminByEmail(context.Background(), want.Email)
	if err != nil {
		t.Fatalf("AdminByEmail: %v", err)
	}
	if diff := cmp.Diff(want, byEmail); diff != "" {
		t.Errorf("AdminByEmail (-want +got):\n%s", diff)
	}
}

func testAdminCreateAndLookup(t *testing.T, s store) {
	ctx := context.Background()
	for _, f := range []func() error{
		func() error { _, err := s.AdminByEmail(ctx, "nobody@example.com"); return err },
		func() error { _, err := s.AdminByID(ctx, booking.NewID()); return err },
	} {
		wantErr(t, "lookup of an unknown admin", f(), booking.ErrAdminNotFound)
	}
	first := newAdmin(t, s, "ops@example.com", booking.RoleAdmin)
	wantAdmin(t, s, first)
	again := first
	again.ID = booking.NewID()
	wantErr(t, "CreateAdmin of an email in use", s.CreateAdmin(ctx, again), booking.ErrAdminExists)
	wantAdmin(t, s, first)
	door := newAdmin(t, s, "door@example.com", booking.RoleStaff)
	wantAdmin(t, s, door)
	list, err := s.ListAdmins(ctx)
	if err != nil {
		t.Fatalf("ListAdmins: %v", err)
	}
	if diff := cmp.Diff([]booking.Admin{door, first}, list); diff != "" {
		t.Errorf("ListAdmins, by email (-want +got):\n%s", diff)
	}
}

// testAdminUpdate: a new password or role moves the session version on;
// the same ones change nothing; the last admin keeps the role.
func testAdminUpdate(t *testing.T, s store) {
	ctx := context.Background()
	a := newAdmin(t, s, "ops@example.com", booking.RoleAdmin)
	later := base.Add(time.Hour)

	got, err := s.UpdateAdmin(ctx, booking.AdminUpdate{ID: a.ID, PasswordHash: "hash-2", At: later})
	if err != nil {
		t.Fatalf("UpdateAdmin (password): %v", err)
	}
	want := a
	want.PasswordHash, want.SessionVersion, want.UpdatedAt = "hash-2", 1, later
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UpdateAdmin (password) (-want +got):\n%s", diff)
	}
	wantAdmin(t, s, want)

	same, err := s.UpdateAdmin(ctx, booking.AdminUpdate{ID: a.ID, PasswordHash: "hash-2", Role: booking.RoleAdmin, At: later.Add(time.Hour)})
	if err != nil {
		t.Fatalf("UpdateAdmin (no change): %v", err)
	}
	if diff := cmp.Diff(want, same); diff != "" {
		t.Errorf("UpdateAdmin with what is there changed the account (-want +got):\n%s", diff)
	}
	wantAdmin(t, s, want)

	_, err = s.UpdateAdmin(ctx, booking.AdminUpdate{ID: a.ID, Role: booking.RoleStaff, At: later})
	wantErr(t, "demoting the only admin", err, booking.ErrLastAdmin)
	wantAdmin(t, s, want)

	newAdmin(t, s, "second@example.com", booking.RoleAdmin)
	got, err = s.UpdateAdmin(ctx, booking.AdminUpdate{ID: a.ID, Role: booking.RoleStaff, At: later})
	if err != nil {
		t.Fatalf("UpdateAdmin (role, with another admin): %v", err)
	}
	want.Role, want.SessionVersion = booking.RoleStaff, 2
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UpdateAdmin (role) (-want +got):\n%s", diff)
	}
	wantAdmin(t, s, want)

	_, err = s.UpdateAdmin(ctx, booking.AdminUpdate{ID: booking.NewID(), Role: booking.RoleStaff, At: later})
	wantErr(t, "UpdateAdmin of an unknown account", err, booking.ErrAdminNotFound)
}

func testAdminDelete(t *testing.T, s store) {
	ctx := context.Background()
	a := newAdmin(t, s, "ops@example.com", booking.RoleAdmin)
	door := newAdmin(t, s, "door@example.com", booking.RoleStaff)
	wantErr(t, "deleting the only admin", s.DeleteAdmin(ctx, a.ID), booking.ErrLastAdmin)
	wantAdmin(t, s, a)
	if err := s.DeleteAdmin(ctx, door.ID); err != nil {
		t.Fatalf("DeleteAdmin (staff): %v", err)
	}
	_, err := s.AdminByID(ctx, door.ID)
	wantErr(t, "a deleted account", err, booking.ErrAdminNotFound)
	wantErr(t, "deleting it again", s.DeleteAdmin(ctx, door.ID), booking.ErrAdminNotFound)
	b := newAdmin(t, s, "second@example.com", booking.RoleAdmin)
	if err := s.DeleteAdmin(ctx, a.ID); err != nil {
		t.Fatalf("DeleteAdmin (with another admin): %v", err)
	}
	wantErr(t, "deleting the admin left", s.DeleteAdmin(ctx, b.ID), booking.ErrLastAdmin)
}

func listOccupancy(t *testing.T, s store, f booking.ShowFilter, m booking.Moment) []booking.ShowOccupancy {
	t.Helper()
	list, err := s.ListOccupancy(context.Background(), f, m)
	if err != nil {
		t.Fatalf("ListOccupancy(%+v): %v", f, err)
	}
	return list
}

// refundDue makes a refund_due booking of seat in show: a hold that lapses,
// its seat taken by another session, then the late payment.
func refundDue(t *testing.T, s store, showID, seat, spare string, d time.Duration) booking.Booking {
	t.Helper()
	h := hold(t, s, showID, "late-"+seat, at(d), seat)
	p, _ := pay(t, s, h, at(d))
	hold(t, s, showID, "quick-"+seat, at(d+ttl), seat, spare)
	st := settle(t, s, event(p, booking.EventPaymentSucceeded), "NOPE-0000", at(d+ttl+time.Minute))
	if st.Effect != booking.EffectRefundDue {
		t.Fatalf("late payment: effect %q, want refund_due", st.Effect)
	}
	return st.Booking
}

// testListOccupancyAgreesWithGoRule fills shows with seats in every state
// and compares the overview's counts with booking.CountOccupancy on the
// stored seats and its money with booking.Summarize on the stored bookings,
// at random moments and at the boundaries of the locks.
func testListOccupancyAgreesWithGoRule(t *testing.T, s store) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed(t), 0xad))
	var shows []booking.Show
	for i := range 3 {
		show, seats := newShow(t, s, 3, 8, base.Add(time.Duration(i+2)*24*time.Hour))
		shows = append(shows, show)
		for _, seat := range seats[:20] {
			d := time.Duration(rng.Int64N(int64(2 * ttl)))
			owner := "o-" + seat.ID
			switch rng.IntN(4) {
			case 0:
				hold(t, s, show.ID, owner, at(d), seat.ID)
			case 1:
				book(t, s, show.ID, owner, at(d), seat.ID)
			case 2:
				h := hold(t, s, show.ID, owner, at(d), seat.ID)
				if _, err := s.ReleaseHold(ctx, h.ID, owner); err != nil {
					t.Fatalf("ReleaseHold: %v", err)
				}
			}
		}
		// Some revenue whatever the random choices were.
		book(t, s, show.ID, "o-"+seats[21].ID, at(0), seats[21].ID)
		refundDue(t, s, show.ID, seats[22].ID, seats[23].ID, 3*ttl)
	}
	// A show without seats counts zeros.
	empty := booking.Show{ID: booking.NewID(), Theatre: booking.Theatre{ID: "t1"}, StartsAt: base.Add(10 * 24 * time.Hour), Currency: currency}
	createShow(t, s, empty, nil)

	moments := []booking.Moment{at(0), at(ttl / 2), at(ttl), at(2 * ttl), at(5 * ttl), booking.Rules{TTL: time.Hour}.At(base.Add(ttl))}
	for _, seat := range getSeats(t, s, shows[0].ID) {
		if seat.Status == booking.SeatLocked {
			for _, off := range []time.Duration{-time.Nanosecond, 0, time.Nanosecond} {
				moments = append(moments, booking.Rules{TTL: ttl}.At(seat.LockedAt.Add(ttl+off)))
			}
		}
	}
	for _, m := range moments {
		var want []booking.ShowOccupancy
		for _, show := range append(shows, empty) {
			so := booking.ShowOccupancy{Show: getShow(t, s, show.ID), Occupancy: booking.CountOccupancy(getSeats(t, s, show.ID), m)}
			bookings, err := s.ShowBookings(ctx, show.ID)
			if err != nil {
				t.Fatalf("ShowBookings: %v", err)
			}
			so.Revenue, so.RefundsDue = booking.Summarize(bookings)
			want = append(want, so)
		}
		if diff := cmp.Diff(want, listOccupancy(t, s, booking.ShowFilter{}, m)); diff != "" {
			t.Fatalf("ListOccupancy at base%+v with TTL %v disagrees with the Go rule (-go +store):\n%s", m.Now.Sub(base), m.TTL, diff)
		}
	}
	if got := listOccupancy(t, s, booking.ShowFilter{}, at(0)); got[0].RefundsDue != 1 || got[0].Revenue == 0 {
		t.Errorf("first show: revenue %d, refunds due %d; want some revenue and 1 refund due", got[0].Revenue, got[0].RefundsDue)
	}
}

func getShow(t *testing.T, s store, id string) booking.Show {
	t.Helper()
	sh, err := s.Show(context.Background(), id)
	if err != nil {
		t.Fatalf("Show(%s): %v", id, err)
	}
	return sh
}

func testListOccupancyFilters(t *testing.T, s store) {
	ctx := context.Background()
	mk := func(theatre string, startsAt time.Time) string {
		show := booking.Show{ID: booking.NewID(), Theatre: booking.Theatre{ID: theatre, Name: "Theatre " + theatre, City: "Pune"},
			Screen: "1", StartsAt: startsAt, Currency: currency}
		createShow(t, s, show, []booking.Seat{{ID: "A1", Row: "A", Number: 1, Category: "Classic", Price: classicPrice}})
		return show.ID
	}
	day := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	a1, a2 := mk("ta", day.Add(10*time.Hour)), mk("ta", day.Add(34*time.Hour))
	b1 := mk("tb", day.Add(11*time.Hour))
	ids := func(f booking.ShowFilter) []string {
		var out []string
		for _, so := range listOccupancy(t, s, f, at(0)) {
			out = append(out, so.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		f    booking.ShowFilter
		want []string
	}{
		{"all", booking.ShowFilter{}, []string{a1, b1, a2}},
		{"one day", booking.ShowFilter{From: day, To: day.Add(24 * time.Hour)}, []string{a1, b1}},
		{"from", booking.ShowFilter{From: day.Add(11 * time.Hour)}, []string{b1, a2}},
		{"theatre", booking.ShowFilter{TheatreID: "ta"}, []string{a1, a2}},
		{"theatre and day", booking.ShowFilter{TheatreID: "tb", From: day, To: day.Add(24 * time.Hour)}, []string{b1}},
		{"limit", booking.ShowFilter{Limit: 2}, []string{a1, b1}},
		{"second page", booking.ShowFilter{Limit: 2, Offset: 2}, []string{a2}},
		{"offset without limit", booking.ShowFilter{Offset: 1}, []string{b1, a2}},
		{"past the end", booking.ShowFilter{Limit: 2, Offset: 4}, nil},
		{"newest first", booking.ShowFilter{Newest: true}, []string{a2, b1, a1}},
		{"newest, before, paged", booking.ShowFilter{Newest: true, To: day.Add(34 * time.Hour), Limit: 1, Offset: 1}, []string{a1}},
		{"theatre, paged", booking.ShowFilter{TheatreID: "ta", Limit: 1, Offset: 1}, []string{a2}},
		{"none", booking.ShowFilter{TheatreID: "nowhere"}, nil},
	} {
		if diff := cmp.Diff(tc.want, ids(tc.f)); diff != "" {
			t.Errorf("%s: shows (-want +got):\n%s", tc.name, diff)
		}
	}
	theatres, err := s.Theatres(ctx)
	if err != nil {
		t.Fatalf("Theatres: %v", err)
	}
	want := []booking.Theatre{{ID: "ta", Name: "Theatre ta", City: "Pune"}, {ID: "tb", Name: "Theatre tb", City: "Pune"}}
	if diff := cmp.Diff(want, theatres); diff != "" {
		t.Errorf("Theatres (-want +got):\n%s", diff)
	}
}

func testMarkRefunded(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	_, confirmed := book(t, s, show.ID, "o1", at(0), "A1")
	due := refundDue(t, s, show.ID, "A2", "A3", time.Minute)

	_, err := s.MarkRefunded(ctx, confirmed.ID, "re_1", "ops@example.com", at(time.Hour).Now)
	wantErr(t, "MarkRefunded of a confirmed booking", err, booking.ErrNotRefundDue)
	_, err = s.MarkRefunded(ctx, booking.NewID(), "re_1", "ops@example.com", at(time.Hour).Now)
	wantErr(t, "MarkRefunded of an unknown booking", err, booking.ErrBookingNotFound)

	when := at(time.Hour).Now
	got, err := s.MarkRefunded(ctx, due.ID, "re_1", "ops@example.com", when)
	if err != nil {
		t.Fatalf("MarkRefunded: %v", err)
	}
	want := due
	want.State, want.RefundID = booking.BookingRefunded, "re_1"
	want.RefundedAt, want.RefundedBy, want.UpdatedAt = when, "ops@example.com", when
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MarkRefunded (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, getBooking(t, s, due.ID)); diff != "" {
		t.Errorf("Booking after MarkRefunded (-want +got):\n%s", diff)
	}
	_, err = s.MarkRefunded(ctx, due.ID, "re_2", "other@example.com", at(2*time.Hour).Now)
	wantErr(t, "MarkRefunded twice", err, booking.ErrAlreadyRefunded)
	if b := getBooking(t, s, due.ID); b.RefundedBy != "ops@example.com" || b.RefundID != "re_1" {
		t.Errorf("a second MarkRefunded changed the refund to %q by %q", b.RefundID, b.RefundedBy)
	}

	list, err := s.ShowBookings(ctx, show.ID)
	if err != nil {
		t.Fatalf("ShowBookings: %v", err)
	}
	if diff := cmp.Diff([]booking.Booking{confirmed, want}, list); diff != "" {
		t.Errorf("ShowBookings (-want +got):\n%s", diff)
	}
	if so := listOccupancy(t, s, booking.ShowFilter{}, at(time.Hour)); so[0].RefundsDue != 0 || so[0].Revenue != confirmed.Amount {
		t.Errorf("after the refund: refunds due %d, revenue %d; want 0 and %d", so[0].RefundsDue, so[0].Revenue, confirmed.Amount)
	}
	if other, err := s.ShowBookings(ctx, booking.NewID()); err != nil || len(other) != 0 {
		t.Errorf("ShowBookings of an unknown show = %v, %v; want none", other, err)
	}
}

func testCallbackLog(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	otherShow, _ := newShow(t, s, 1, 2, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, _ := pay(t, s, h, at(0))
	oh := hold(t, s, otherShow.ID, "o2", at(0), "A1")
	op, _ := pay(t, s, oh, at(0))

	rec := func(d time.Duration, paymentID, outcome string, status int, sig booking.SignatureVerdict, dup bool) booking.CallbackRecord {
		r := booking.CallbackRecord{
			ID: booking.NewID(), ReceivedAt: at(d).Now, Signature: sig, EventID: "evt_" + booking.NewID(),
			EventType: string(booking.EventPaymentSucceeded), PaymentID: paymentID, Status: status,
			Outcome: outcome, Duplicate: dup, Reason: "because " + outcome,
		}
		if err := s.RecordCallback(ctx, r); err != nil {
			t.Fatalf("RecordCallback: %v", err)
		}
		return r
	}
	// Recorded out of order; listed newest first.
	second := rec(2*time.Second, p.ID, string(booking.EffectBooked), 200, booking.SignatureValid, false)
	first := rec(time.Second, p.ID, booking.OutcomeRejected, 401, booking.SignatureInvalid, false)
	third := rec(3*time.Second, p.ID, string(booking.EffectBooked), 200, booking.SignatureValid, true)
	other := rec(time.Second, op.ID, string(booking.EffectReleased), 200, booking.SignatureValid, false)
	stray := rec(time.Second, "no-such-payment", booking.OutcomeRejected, 404, booking.SignatureValid, false)

	list := func(q booking.CallbackQuery) []booking.CallbackRecord {
		t.Helper()
		got, err := s.Callbacks(ctx, q)
		if err != nil {
			t.Fatalf("Callbacks(%+v): %v", q, err)
		}
		return got
	}
	for _, tc := range []struct {
		name string
		q    booking.CallbackQuery
		want []booking.CallbackRecord
	}{
		{"by payment", booking.CallbackQuery{PaymentID: p.ID}, []booking.CallbackRecord{third, second, first}},
		{"by show", booking.CallbackQuery{ShowID: show.ID}, []booking.CallbackRecord{third, second, first}},
		{"other show", booking.CallbackQuery{ShowID: otherShow.ID}, []booking.CallbackRecord{other}},
		{"unknown payment", booking.CallbackQuery{PaymentID: "no-such-payment"}, []booking.CallbackRecord{stray}},
		{"limit: the newest", booking.CallbackQuery{PaymentID: p.ID, Limit: 2}, []booking.CallbackRecord{third, second}},
		{"nothing", booking.CallbackQuery{ShowID: booking.NewID()}, []booking.CallbackRecord{}},
	} {
		if diff := cmp.Diff(tc.want, list(tc.q)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// testRaceLastAdmin: every admin tries to stop being one at once, some by
// a demotion, some by deletion; however they interleave, exactly one admin
// is left. Each round races the previous round's survivor with three new
// admins.
func testRaceLastAdmin(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	survivor := newAdmin(t, s, "first@example.com", booking.RoleAdmin)
	for round := range 10 {
		accounts := []booking.Admin{survivor}
		for i := range 3 {
			accounts = append(accounts, newAdmin(t, s, fmt.Sprintf("r%d-%d@example.com", round, i), booking.RoleAdmin))
		}
		errs := make([]error, len(accounts))
		concurrently(len(accounts), func(i int) {
			if (i+round)%2 == 0 {
				_, errs[i] = s.UpdateAdmin(ctx, booking.AdminUpdate{ID: accounts[i].ID, Role: booking.RoleStaff, At: base})
			} else {
				errs[i] = s.DeleteAdmin(ctx, accounts[i].ID)
			}
		})
		refused := 0
		for i, err := range errs {
			switch {
			case errors.Is(err, booking.ErrLastAdmin):
				refused++
				survivor = accounts[i]
			case err != nil:
				t.Fatalf("round %d, account %d: %v", round, i, err)
			}
		}
		list, err := s.ListAdmins(ctx)
		if err != nil {
			t.Fatalf("ListAdmins: %v", err)
		}
		var admins []string
		for _, a := range list {
			if a.Role == booking.RoleAdmin {
				admins = append(admins, a.ID)
			}
		}
		if refused != 1 || len(admins) != 1 || admins[0] != survivor.ID {
			t.Fatalf("round %d: %d refused (errors %v), admins left %v; want exactly the one refused", round, refused, errs, admins)
		}
	}
}

// testRefundQueue: the site's refund queue lists refund_due bookings of
// every show, the one waiting longest first, a page at a time; confirmed
// and refunded bookings are not in it.
func testRefundQueue(t *testing.T, s store) {
	ctx := context.Background()
	one, _ := newShow(t, s, 1, 6, later)
	two, _ := newShow(t, s, 1, 6, later)
	book(t, s, one.ID, "o1", at(0), "A1")
	second := refundDue(t, s, two.ID, "A2", "A3", 2*time.Minute)
	first := refundDue(t, s, one.ID, "A2", "A3", time.Minute)
	third := refundDue(t, s, one.ID, "A4", "A5", 3*time.Minute)
	gone := refundDue(t, s, two.ID, "A4", "A5", 4*time.Minute)
	if _, err := s.MarkRefunded(ctx, gone.ID, "re_1", "ops@example.com", at(time.Hour).Now); err != nil {
		t.Fatalf("MarkRefunded: %v", err)
	}
	queue := func(limit, offset int) []string {
		t.Helper()
		list, err := s.RefundQueue(ctx, limit, offset)
		if err != nil {
			t.Fatalf("RefundQueue(%d, %d): %v", limit, offset, err)
		}
		var ids []string
		for _, b := range list {
			if b.State != booking.BookingRefundDue {
				t.Errorf("RefundQueue lists %s in state %s", b.ID, b.State)
			}
			ids = append(ids, b.ID)
		}
		return ids
	}
	for _, tc := range []struct {
		limit, offset int
		want          []string
	}{
		{0, 0, []string{first.ID, second.ID, third.ID}},
		{2, 0, []string{first.ID, second.ID}},
		{2, 2, []string{third.ID}},
		{2, 4, nil},
	} {
		if diff := cmp.Diff(tc.want, queue(tc.limit, tc.offset)); diff != "" {
			t.Errorf("RefundQueue(%d, %d) (-want +got):\n%s", tc.limit, tc.offset, diff)
		}
	}
	if got, err := s.RefundQueue(ctx, 1, 0); err != nil || len(got) != 1 || cmp.Diff(first, got[0]) != "" {
		t.Errorf("RefundQueue(1, 0) = %v, %v; want the booking as stored (-want +got):\n%s", got, err, cmp.Diff([]booking.Booking{first}, got))
	}
}
