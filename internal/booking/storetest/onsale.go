package storetest

import (
	"context"
	crand "crypto/rand"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// The on-sale and its queue (SPEC §18).
var onSaleTests = []test{
	{"CreateCoversAndOpens", testOnSaleCreateCoversAndOpens},
	{"ShowCoveredOnce", testOnSaleShowCoveredOnce},
	{"CreateRace", testOnSaleCreateRace},
	{"ExtendCoveredElsewhere", testOnSaleExtendCoveredElsewhere},
	{"Changes", testOnSaleChanges},
	{"MovieOfTooManyShows", testOnSaleMovieOfTooManyShows},
	{"JoinWritesOneRow", testOnSaleJoinWritesOneRow},
	{"Positions", testOnSalePositions},
	{"PositionsSettle", testOnSalePositionsSettle},
	{"NumberInBatches", testQueueNumberInBatches},
	{"NumberRace", testQueueNumberRace},
	{"NumberAfterMargin", testQueueNumberAfterMargin},
	{"LateEarlyJoin", testQueueLateEarlyJoin},
	{"Prune", testOnSalePrune},
	{"SalesOpening", testSalesOpening},
}

// onSaleT0 is the suite's on-sales' opening: an hour after base.
var onSaleT0 = base.Add(time.Hour)

func onSaleRequest(name string) booking.OnSaleRequest {
	key := make([]byte, 32)
	_, _ = crand.Read(key)
	return booking.OnSaleRequest{ID: booking.NewID(), Key: key, Name: name, OpensAt: onSaleT0, Rate: 60}
}

// createOnSale runs CreateOnSaleStep at base.
func createOnSale(t *testing.T, s store, r booking.OnSaleRequest) booking.OnSale {
	t.Helper()
	o, err := booking.CreateOnSaleStep(context.Background(), s.Store, fixed(base), r)
	if err != nil {
		t.Fatalf("CreateOnSaleStep: %v", err)
	}
	return o
}

// movieShows creates n shows of one movie, the first a day after base,
// one a day after the other.
func movieShows(t *testing.T, s store, n int) []booking.Show {
	t.Helper()
	movie := booking.Movie{ID: "m-" + booking.NewID()[:8], Title: "Endgame", Rating: "UA", RuntimeMin: 181, Language: "English"}
	var shows []booking.Show
	for i := range n {
		show, seats := newShowPlan(1, 4, base.Add(time.Duration(i+1)*24*time.Hour))
		show.Movie = movie
		createShow(t, s, show, seats)
		shows = append(shows, show)
	}
	return shows
}

// testOnSaleCreateCoversAndOpens: an on-sale of a movie covers its shows
// to come that run (not a cancelled one, nor one that started), sets their
// sales opening to T0, in one step; before T0 a hold is refused (EGONE),
// from T0 it is made.
func testOnSaleCreateCoversAndOpens(t *testing.T, s store) {
	ctx := context.Background()
	shows := movieShows(t, s, 3)
	if _, _, err := s.CancelShow(ctx, shows[2].ID, at(0)); err != nil {
		t.Fatal(err)
	}
	r := onSaleRequest("Endgame pre-sale")
	r.MovieID = shows[0].Movie.ID
	o := createOnSale(t, s, r)
	got, err := s.OnSale(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{shows[0].ID, shows[1].ID}; !sameSet(got.Shows, want) {
		t.Errorf("covers %v, want %v (the cancelled show left out)", got.Shows, want)
	}
	if !got.OpensAt.Equal(onSaleT0) || !got.ClosesAt.Equal(onSaleT0.Add(2*time.Hour)) || got.PassTTL != 15*time.Minute ||
		len(got.Key) != 32 || got.Name != r.Name || !got.CreatedAt.Equal(base) {
		t.Errorf("stored %+v; want T0, T0+2h, 15m, its key and name, created at base", got)
	}
	if want := []booking.Segment{{From: onSaleT0, Rate: 60}}; !slices.EqualFunc(got.Segments, want, sameSegment) {
		t.Errorf("segments %+v, want %+v", got.Segments, want)
	}
	for _, sh := range shows[:2] {
		stored, err := s.Show(ctx, sh.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !stored.SalesOpenAt.Equal(onSaleT0) {
			t.Errorf("show %s opens at %v, want T0 %v", sh.ID, stored.SalesOpenAt, onSaleT0)
		}
	}
	if stored, _ := s.Show(ctx, shows[2].ID); !stored.SalesOpenAt.IsZero() {
		t.Errorf("the cancelled show opens at %v, want no opening", stored.SalesOpenAt)
	}
	err = s.HoldSeats(ctx, newHold(shows[0].ID, "early", at(59*time.Minute), "A1"), at(59*time.Minute))
	wantCode(t, "a hold before T0", err, booking.EGONE)
	hold(t, s, shows[0].ID, "on-time", at(time.Hour), "A1")

	// Chosen shows; an unknown one is named.
	other, _ := newShow(t, s, 1, 2, later)
	r2 := onSaleRequest("chosen")
	r2.ShowIDs = []string{other.ID, other.ID}
	if o2 := createOnSale(t, s, r2); !slices.Equal(o2.Shows, []string{other.ID}) {
		t.Errorf("covers %v, want the chosen show once", o2.Shows)
	}
	r3 := onSaleRequest("unknown")
	r3.ShowIDs = []string{"nosuchshow"}
	_, err = booking.CreateOnSaleStep(ctx, s.Store, fixed(base), r3)
	if booking.ErrorCode(err) != booking.EINVALID || !strings.Contains(booking.ErrorMessage(err), "nosuchshow") {
		t.Errorf("an unknown show: %v, want EINVALID naming it", err)
	}
}

// testOnSaleMovieOfTooManyShows: an on-sale of a movie with more shows to
// come than one on-sale covers is EINVALID, saying to choose its shows, and
// opens none of them: its step must fit in one transaction.
func testOnSaleMovieOfTooManyShows(t *testing.T, s store) {
	ctx := context.Background()
	shows := movieShows(t, s, booking.MaxOnSaleShows+1)
	r := onSaleRequest("too many")
	r.MovieID = shows[0].Movie.ID
	_, err := booking.CreateOnSaleStep(ctx, s.Store, fixed(base), r)
	if booking.ErrorCode(err) != booking.EINVALID || !strings.Contains(booking.ErrorMessage(err), "choose its shows") {
		t.Fatalf("a movie of %d shows: %v, want EINVALID saying to choose its shows", len(shows), err)
	}
	if stored, _ := s.Show(ctx, shows[0].ID); !stored.SalesOpenAt.IsZero() {
		t.Errorf("the refused on-sale opened a show at %v", stored.SalesOpenAt)
	}
}

// testOnSaleShowCoveredOnce: a show covered by an open on-sale cannot be
// covered by another (EINVALID naming the show, nothing stored); once
// that one closed, it can.
func testOnSaleShowCoveredOnce(t *testing.T, s store) {
	ctx := context.Background()
	shows := movieShows(t, s, 2)
	r := onSaleRequest("first")
	r.ShowIDs = []string{shows[1].ID}
	first := createOnSale(t, s, r)

	r2 := onSaleRequest("second")
	r2.MovieID = shows[0].Movie.ID
	_, err := booking.CreateOnSaleStep(ctx, s.Store, fixed(base), r2)
	if booking.ErrorCode(err) != booking.EINVALID || !strings.Contains(booking.ErrorMessage(err), "Endgame") ||
		!strings.Contains(booking.ErrorMessage(err), `"first"`) {
		t.Errorf("a show covered twice: %v, want EINVALID naming the show and its on-sale", err)
	}
	wantErr(t, "the refused on-sale", func() error { _, err := s.OnSale(ctx, r2.ID); return err }(), booking.ErrOnSaleNotFound)
	if sh, _ := s.Show(ctx, shows[0].ID); !sh.SalesOpenAt.IsZero() {
		t.Error("the refused on-sale set a show's opening")
	}
	if _, err := booking.CloseOnSaleStep(ctx, s.Store, fixed(base.Add(time.Minute)), first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := booking.CreateOnSaleStep(ctx, s.Store, fixed(base.Add(2*time.Minute)), r2); err != nil {
		t.Errorf("covering the shows of a closed on-sale: %v", err)
	}
}

// testOnSaleCreateRace: of two creations at once covering one show,
// exactly one is stored.
func testOnSaleCreateRace(t *testing.T, s store) {
	ctx := context.Background()
	for round := range 5 {
		shows := movieShows(t, s, 1)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Go(func() {
				r := onSaleRequest("racer")
				r.ShowIDs = []string{shows[0].ID}
				_, errs[i] = booking.CreateOnSaleStep(ctx, s.Store, fixed(base), r)
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case booking.ErrorCode(err) != booking.EINVALID:
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d creations covering one show won, want 1 (%v)", round, won, errs)
		}
	}
	open, err := s.OpenOnSales(ctx, base)
	if err != nil || len(open) != 5 {
		t.Errorf("%d open on-sales (%v), want one a round", len(open), err)
	}
}

// testOnSaleExtendCoveredElsewhere: an extension that would make a show
// covered by two open on-sales is EINVALID naming the show, and changes
// nothing. It happens when an extension decided at a moment before the
// on-sale's close (the admin's request read the clock, then waited for
// the database) runs after a creation that, at the close, found the show
// free: in MongoDB the two write different documents, and only the
// extension's serialising on the shows makes them conflict.
func testOnSaleExtendCoveredElsewhere(t *testing.T, s store) {
	ctx := context.Background()
	shows := movieShows(t, s, 2)
	r := onSaleRequest("first")
	r.ShowIDs = []string{shows[0].ID, shows[1].ID}
	first := createOnSale(t, s, r)
	closes := first.ClosesAt

	r2 := onSaleRequest("second")
	r2.ShowIDs = []string{shows[1].ID}
	r2.OpensAt, r2.ClosesAt = closes.Add(time.Hour), closes.Add(3*time.Hour)
	if _, err := booking.CreateOnSaleStep(ctx, s.Store, fixed(closes), r2); err != nil {
		t.Fatalf("covering a show of an on-sale at its close: %v", err)
	}
	_, err := booking.ExtendOnSaleStep(ctx, s.Store, fixed(closes.Add(-time.Nanosecond)), first.ID, closes.Add(5*time.Hour))
	if booking.ErrorCode(err) != booking.EINVALID || !strings.Contains(booking.ErrorMessage(err), "Endgame") ||
		!strings.Contains(booking.ErrorMessage(err), `"second"`) {
		t.Errorf("extending over another on-sale's show: %v, want EINVALID naming the show and that on-sale", err)
	}
	if got, _ := s.OnSale(ctx, first.ID); !got.ClosesAt.Equal(closes) {
		t.Errorf("the refused extension moved the closing to %v", got.ClosesAt)
	}
	// Its own shows do not stand in its way.
	if _, err := booking.ExtendOnSaleStep(ctx, s.Store, fixed(closes.Add(time.Minute)), r2.ID, r2.ClosesAt.Add(time.Hour)); err != nil {
		t.Errorf("extending an on-sale covering its shows alone: %v", err)
	}
}

// testOnSaleChanges: pause, resume and rate append segments from the
// moment (replacing the first before T0); close ends it now; extend moves
// its closing; a closed one takes no change; OpenOnSales lists the open.
func testOnSaleChanges(t *testing.T, s store) {
	ctx := context.Background()
	shows := movieShows(t, s, 1)
	r := onSaleRequest("changes")
	r.MovieID = shows[0].Movie.ID
	o := createOnSale(t, s, r)
	step := func(what string, run func() (booking.OnSale, error)) booking.OnSale {
		t.Helper()
		got, err := run()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		stored, err := s.OnSale(ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got.Segments, stored.Segments, sameSegment) || !got.ClosesAt.Equal(stored.ClosesAt) || !got.ClosedAt.Equal(stored.ClosedAt) {
			t.Fatalf("%s: returned %+v, stored %+v", what, got, stored)
		}
		return stored
	}
	id := o.ID
	step("pause before T0", func() (booking.OnSale, error) { return booking.PauseOnSaleStep(ctx, s.Store, fixed(base), id) })
	got := step("rate at T0+10m", func() (booking.OnSale, error) {
		return booking.SetOnSaleRateStep(ctx, s.Store, fixed(onSaleT0.Add(10*time.Minute)), id, 120)
	})
	got = step("resume at T0+20m", func() (booking.OnSale, error) {
		return booking.ResumeOnSaleStep(ctx, s.Store, fixed(onSaleT0.Add(20*time.Minute)), id)
	})
	want := []booking.Segment{
		{From: onSaleT0, Rate: 60, Paused: true},
		{From: onSaleT0.Add(10 * time.Minute), Rate: 120, Paused: true},
		{From: onSaleT0.Add(20 * time.Minute), Rate: 120},
	}
	if !slices.EqualFunc(got.Segments, want, sameSegment) {
		t.Errorf("segments %+v, want %+v", got.Segments, want)
	}
	if _, err := booking.SetOnSaleRateStep(ctx, s.Store, fixed(onSaleT0), id, 0); booking.ErrorCode(err) != booking.EINVALID {
		t.Errorf("rate 0: %v, want EINVALID", err)
	}
	_, err := booking.ExtendOnSaleStep(ctx, s.Store, fixed(onSaleT0), id, onSaleT0.Add(time.Hour))
	wantCode(t, "extend to earlier", err, booking.EINVALID)
	_, err = booking.ExtendOnSaleStep(ctx, s.Store, fixed(onSaleT0), id, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))
	wantCode(t, "extend to 9999 (beyond Unix ns)", err, booking.EINVALID)
	got = step("extend", func() (booking.OnSale, error) {
		return booking.ExtendOnSaleStep(ctx, s.Store, fixed(onSaleT0), id, onSaleT0.Add(3*time.Hour))
	})
	if !got.ClosesAt.Equal(onSaleT0.Add(3 * time.Hour)) {
		t.Errorf("closes at %v after extend, want T0+3h", got.ClosesAt)
	}
	closeAt := onSaleT0.Add(30 * time.Minute)
	got = step("close", func() (booking.OnSale, error) { return booking.CloseOnSaleStep(ctx, s.Store, fixed(closeAt), id) })
	if !got.ClosedAt.Equal(closeAt) || !got.ClosesAt.Equal(closeAt) {
		t.Errorf("closed %+v, want closed and closing at %v", got, closeAt)
	}
	if again, err := booking.CloseOnSaleStep(ctx, s.Store, fixed(closeAt.Add(time.Second)), id); err != nil || again.ID != id || !again.ClosedAt.Equal(closeAt) {
		t.Errorf("closing it again: %+v, %v; want it as it was closed at %v", again, err, closeAt)
	}
	_, err = booking.PauseOnSaleStep(ctx, s.Store, fixed(closeAt.Add(time.Second)), id)
	wantErr(t, "pause a closed on-sale", err, booking.ErrOnSaleClosed)
	_, err = booking.PauseOnSaleStep(ctx, s.Store, fixed(base), "nosuch")
	wantErr(t, "pause an unknown on-sale", err, booking.ErrOnSaleNotFound)
	if open, err := s.OpenOnSales(ctx, closeAt.Add(-time.Second)); err != nil || len(open) != 1 || open[0].ID != id || !sameSet(open[0].Shows, []string{shows[0].ID}) {
		t.Errorf("open before the close: %+v, %v", open, err)
	}
	if open, err := s.OpenOnSales(ctx, closeAt); err != nil || len(open) != 0 {
		t.Errorf("open at the close: %+v, %v; want none", open, err)
	}
	if all, err := s.ListOnSales(ctx); err != nil || len(all) != 1 {
		t.Errorf("ListOnSales: %+v, %v", all, err)
	}
}

// testOnSaleJoinWritesOneRow: a join is one entry of its on-sale's queue.
func testOnSaleJoinWritesOneRow(t *testing.T, s store) {
	ctx := context.Background()
	shows := movieShows(t, s, 1)
	r := onSaleRequest("join")
	r.MovieID = shows[0].Movie.ID
	o := createOnSale(t, s, r)
	before, _ := s.ListOnSales(ctx)
	e := booking.NewQueueEntry(o, booking.NewID(), base.Add(time.Minute))
	if err := s.JoinQueue(ctx, e); err != nil {
		t.Fatal(err)
	}
	if n, err := s.CountQueue(ctx, o.ID); err != nil || n != 1 {
		t.Errorf("CountQueue = %d, %v; want 1", n, err)
	}
	if p, ok, err := s.QueuePosition(ctx, o.ID, e.JoinID); err != nil || ok {
		t.Errorf("QueuePosition of an entry not numbered = %d, %v, %v; want none", p, ok, err)
	}
	after, _ := s.ListOnSales(ctx)
	same(t, "the on-sale after a join", before, after)
	if n, _ := s.CountQueue(ctx, "other"); n != 0 {
		t.Errorf("another on-sale's queue has %d", n)
	}
}

// testOnSalePositions: numbering gives positions 0…n-1, each once: those
// who joined before T0 first, in the order of their ranks (a permutation
// that is not their join order), then the later ones in the order they
// joined (ties by join id).
func testOnSalePositions(t *testing.T, s store) {
	ctx := context.Background()
	shows := movieShows(t, s, 1)
	r := onSaleRequest("positions")
	r.MovieID = shows[0].Movie.ID
	o := createOnSale(t, s, r)
	const early, late = 20, 6
	var entries []booking.QueueEntry
	for i := range early {
		e := booking.NewQueueEntry(o, booking.NewID(), onSaleT0.Add(-time.Duration(early-i)*time.Second))
		entries = append(entries, e)
	}
	for i := range late {
		// Two at each instant: the join id decides between them.
		e := booking.NewQueueEntry(o, booking.NewID(), onSaleT0.Add(time.Duration(i/2)*time.Second))
		entries = append(entries, e)
	}
	for _, i := range rand.Perm(len(entries)) { // stored in any order
		if err := s.JoinQueue(ctx, entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Another on-sale's queue does not count.
	r2 := onSaleRequest("other")
	r2.ShowIDs = []string{newShowID(t, s)}
	o2 := createOnSale(t, s, r2)
	for range 3 {
		if err := s.JoinQueue(ctx, booking.NewQueueEntry(o2, booking.NewID(), base)); err != nil {
			t.Fatal(err)
		}
	}

	if n := numberQueue(t, s, o.ID, settled, booking.QueueNumberBatch); n != len(entries) {
		t.Fatalf("numbered %d entries, want %d", n, len(entries))
	}
	pos := positions(t, s, entries)
	if got := slices.Sorted(slices.Values(pos)); !slices.Equal(got, identity(len(entries))) {
		t.Errorf("positions %v are not 0…%d, each once", got, len(entries)-1)
	}
	// The other queue is numbered on its own, from 0.
	if n := numberQueue(t, s, o2.ID, settled, booking.QueueNumberBatch); n != 3 {
		t.Errorf("numbered %d entries of the other queue, want 3", n)
	}
	byRank := slices.Clone(entries[:early])
	slices.SortFunc(byRank, func(a, b booking.QueueEntry) int { return strings.Compare(a.Rank, b.Rank) })
	for want, e := range byRank {
		i := slices.IndexFunc(entries, func(x booking.QueueEntry) bool { return x.JoinID == e.JoinID })
		if pos[i] != want {
			t.Errorf("early joiner %d is at %d, want %d (by rank)", i, pos[i], want)
		}
	}
	if slices.Equal(pos[:early], identity(early)) {
		t.Error("those who joined before T0 are in join order, not shuffled")
	}
	lateWant := make([]int, late)
	for i := range late {
		lateWant[i] = early + i
	}
	lateEntries := slices.Clone(entries[early:])
	slices.SortFunc(lateEntries, func(a, b booking.QueueEntry) int {
		if c := a.JoinedAt.Compare(b.JoinedAt); c != 0 {
			return c
		}
		return strings.Compare(a.JoinID, b.JoinID)
	})
	for want, e := range lateEntries {
		i := slices.IndexFunc(entries, func(x booking.QueueEntry) bool { return x.JoinID == e.JoinID })
		if pos[i] != early+want {
			t.Errorf("late joiner %d is at %d, want %d (by join time, then id)", i-early, pos[i], early+want)
		}
	}
}

// testOnSalePositionsSettle: joins reach the store out of the order of
// their times (processes' clocks differ, one insert is slower than
// another), each within booking.SettlingMargin of its time. A place
// numbered and read as soon as PositionKnown allows, and then kept (the
// queue page keeps it in its cookie), is never given to two visitors, and
// none is skipped.
func testOnSalePositionsSettle(t *testing.T, s store) {
	ctx := context.Background()
	r := onSaleRequest("settle")
	r.ShowIDs = []string{newShowID(t, s)}
	o := createOnSale(t, s, r)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	type join struct {
		joined, arrives time.Duration // from T0
	}
	joins := []join{
		{-ms(3000), -ms(2900)},
		{-ms(1000), ms(1500)}, // before T0 by a clock a second behind
		{-ms(500), -ms(400)},
		{ms(1000), ms(3000)}, // a slow insert, or a slow clock: it arrives after the next
		{ms(2000), ms(2000)},
		{ms(2000), ms(6500)},
		{ms(2500), ms(2600)},
		{ms(6000), ms(6000)},
		{ms(6000) + time.Nanosecond, ms(6000)},
	}
	entries := make([]booking.QueueEntry, len(joins))
	for i, j := range joins {
		if j.arrives-j.joined >= booking.SettlingMargin {
			t.Fatalf("join %d arrives after the settling margin", i)
		}
		entries[i] = booking.NewQueueEntry(o, booking.NewID(), onSaleT0.Add(j.joined))
	}
	stored := make([]bool, len(joins))
	pos := make([]int, len(joins))
	for i := range pos {
		pos[i] = -1
	}
	for now := -ms(3000); now <= ms(20000); now += ms(100) {
		for i, j := range joins {
			if !stored[i] && j.arrives <= now {
				if err := s.JoinQueue(ctx, entries[i]); err != nil {
					t.Fatal(err)
				}
				stored[i] = true
			}
		}
		for i, e := range entries {
			if stored[i] && pos[i] < 0 && o.PositionKnown(e, onSaleT0.Add(now)) {
				// As booking.Service.QueuePosition: number, then read.
				numberQueue(t, s, o.ID, onSaleT0.Add(now), booking.QueueNumberBatch)
				p, ok, err := s.QueuePosition(ctx, e.OnSaleID, e.JoinID)
				if err != nil || !ok {
					t.Fatalf("QueuePosition of a numbered queue's entry: %v, %v", ok, err)
				}
				pos[i] = p
			}
		}
	}
	got := slices.Sorted(slices.Values(pos))
	if !slices.Equal(got, identity(len(joins))) {
		t.Errorf("places %v (by join: %v), want each of 0..%d once", got, pos, len(joins)-1)
	}
}

// testOnSalePrune: an on-sale closed before the cutoff goes with its
// queue; an open one, and its queue, stay.
func testOnSalePrune(t *testing.T, s store) {
	ctx := context.Background()
	ps := pruneStore(t, s)
	shows := movieShows(t, s, 2)
	r := onSaleRequest("old")
	r.ShowIDs = []string{shows[0].ID}
	old := createOnSale(t, s, r)
	r2 := onSaleRequest("current")
	r2.ShowIDs = []string{shows[1].ID}
	r2.ClosesAt = onSaleT0.Add(30 * 24 * time.Hour)
	current := createOnSale(t, s, r2)
	for i := range 7 {
		for _, o := range []booking.OnSale{old, current} {
			if err := s.JoinQueue(ctx, booking.NewQueueEntry(o, booking.NewID(), base.Add(time.Duration(i)*time.Second))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := booking.CloseOnSaleStep(ctx, s.Store, fixed(onSaleT0), old.ID); err != nil {
		t.Fatal(err)
	}
	// Before the close: nothing goes.
	pruneAll(t, ps, onSaleT0, 3)
	if n, _ := s.CountQueue(ctx, old.ID); n != 7 {
		t.Fatalf("%d entries of the on-sale left after a prune before its close, want 7", n)
	}
	pruneAll(t, ps, onSaleT0.Add(time.Nanosecond), 3)
	if _, err := s.OnSale(ctx, old.ID); !errors.Is(err, booking.ErrOnSaleNotFound) {
		t.Errorf("the closed on-sale after Prune: %v, want ErrOnSaleNotFound", err)
	}
	if n, _ := s.CountQueue(ctx, old.ID); n != 0 {
		t.Errorf("%d entries of the closed on-sale left", n)
	}
	if n, _ := s.CountQueue(ctx, current.ID); n != 7 {
		t.Errorf("%d entries of the open on-sale left, want 7", n)
	}
	if _, err := s.OnSale(ctx, current.ID); err != nil {
		t.Errorf("the open on-sale after Prune: %v", err)
	}
}

// settled is when the suite's on-sales' queues are first numbered.
var settled = onSaleT0.Add(booking.SettlingMargin)

// numberQueue runs NumberQueueStep at now until it numbers nothing, and
// returns how many it numbered.
func numberQueue(t *testing.T, s store, onSaleID string, now time.Time, batch int) int {
	t.Helper()
	total := 0
	for {
		n, err := booking.NumberQueueStep(context.Background(), s.Store, fixed(now), onSaleID, batch)
		if err != nil {
			t.Fatalf("NumberQueueStep: %v", err)
		}
		if n > batch {
			t.Fatalf("NumberQueueStep numbered %d, more than its batch %d", n, batch)
		}
		if n == 0 {
			return total
		}
		total += n
	}
}

// positions reads the entries' positions: -1 for one not numbered.
func positions(t *testing.T, s store, entries []booking.QueueEntry) []int {
	t.Helper()
	pos := make([]int, len(entries))
	for i, e := range entries {
		p, ok, err := s.QueuePosition(context.Background(), e.OnSaleID, e.JoinID)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			p = -1
		}
		pos[i] = p
	}
	return pos
}

// queueOrder is entries in the order numbering gives them positions when
// every one is stored before the first step: those from before T0 by
// (rank, join id), then the others by (joined at, join id).
func queueOrder(entries []booking.QueueEntry) []booking.QueueEntry {
	out := slices.Clone(entries)
	slices.SortFunc(out, func(a, b booking.QueueEntry) int {
		switch {
		case a.Before && !b.Before:
			return -1
		case !a.Before && b.Before:
			return 1
		case a.Before:
			if c := strings.Compare(a.Rank, b.Rank); c != 0 {
				return c
			}
		default:
			if c := a.JoinedAt.Compare(b.JoinedAt); c != 0 {
				return c
			}
		}
		return strings.Compare(a.JoinID, b.JoinID)
	})
	return out
}

// joinQueue makes an on-sale at onSaleT0 and joins its queue early times
// before T0 and late times after it, each a second after the other, in a
// random order.
func joinQueue(t *testing.T, s store, early, late int) (booking.OnSale, []booking.QueueEntry) {
	t.Helper()
	r := onSaleRequest("numbered")
	r.ShowIDs = []string{newShowID(t, s)}
	o := createOnSale(t, s, r)
	var entries []booking.QueueEntry
	for i := range early {
		entries = append(entries, booking.NewQueueEntry(o, booking.NewID(), onSaleT0.Add(-time.Duration(early-i)*time.Second)))
	}
	for i := range late {
		entries = append(entries, booking.NewQueueEntry(o, booking.NewID(), onSaleT0.Add(time.Duration(i)*time.Second)))
	}
	for _, i := range rand.Perm(len(entries)) {
		if err := s.JoinQueue(context.Background(), entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	return o, entries
}

// wantQueueOrder checks that order[i] is at position i, for i < upTo, and
// that the others have none.
func wantQueueOrder(t *testing.T, s store, order []booking.QueueEntry, upTo int) {
	t.Helper()
	for i, p := range positions(t, s, order) {
		want := i
		if i >= upTo {
			want = -1
		}
		if p != want {
			t.Errorf("entry %d of the order (before T0: %v) is at %d, want %d", i, order[i].Before, p, want)
		}
	}
}

// testQueueNumberInBatches: each step numbers the next batch (7) of the
// queue (20: 12 before T0, then 8), where the last one stopped, across
// the turn from the rank order to the join order.
func testQueueNumberInBatches(t *testing.T, s store) {
	o, entries := joinQueue(t, s, 12, 8)
	order := queueOrder(entries)
	for _, want := range []int{7, 7, 6, 0} {
		n, err := booking.NumberQueueStep(context.Background(), s.Store, fixed(settled), o.ID, 7)
		if err != nil || n != want {
			t.Fatalf("NumberQueueStep = %d, %v; want %d", n, err, want)
		}
	}
	wantQueueOrder(t, s, order, 20)
	// Step by step: 7 numbered, then 14.
	o, entries = joinQueue(t, s, 12, 8)
	order = queueOrder(entries)
	for i, upTo := range []int{7, 14, 20} {
		if _, err := booking.NumberQueueStep(context.Background(), s.Store, fixed(settled.Add(time.Duration(i)*time.Second)), o.ID, 7); err != nil {
			t.Fatal(err)
		}
		wantQueueOrder(t, s, order, upTo)
	}
}

// testQueueNumberRace: steps run at once by several goroutines never give
// two entries one position nor skip one, and keep the order.
func testQueueNumberRace(t *testing.T, s store) {
	o, entries := joinQueue(t, s, 60, 60)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n, err := booking.NumberQueueStep(context.Background(), s.Store, fixed(settled), o.ID, 7)
				if err != nil {
					errs <- err
					return
				}
				if n == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("NumberQueueStep at once: %v", err)
	}
	wantQueueOrder(t, s, queueOrder(entries), len(entries))
}

// testQueueNumberAfterMargin: nothing is numbered before SettlingMargin
// after T0, not even those who joined after T0; from then on, all are.
func testQueueNumberAfterMargin(t *testing.T, s store) {
	o, entries := joinQueue(t, s, 3, 2)
	for _, now := range []time.Time{base, onSaleT0, settled.Add(-time.Nanosecond)} {
		if n := numberQueue(t, s, o.ID, now, 10); n != 0 {
			t.Errorf("numbered %d entries at %v, before the settling margin's end %v", n, now, settled)
		}
	}
	for i, p := range positions(t, s, entries) {
		if p != -1 {
			t.Errorf("entry %d has position %d before the settling margin's end", i, p)
		}
	}
	if n := numberQueue(t, s, o.ID, settled, 10); n != 5 {
		t.Errorf("numbered %d at the settling margin's end, want 5", n)
	}
	wantQueueOrder(t, s, queueOrder(entries), 5)
	_, err := booking.NumberQueueStep(context.Background(), s.Store, fixed(settled), booking.NewID(), 10)
	wantErr(t, "numbering an unknown on-sale", err, booking.ErrOnSaleNotFound)
}

// testQueueLateEarlyJoin: joins from before T0 stored only after those
// from before T0 were all numbered follow in join order with the entries
// still unnumbered (so, before those that joined after T0), not by rank.
func testQueueLateEarlyJoin(t *testing.T, s store) {
	ctx := context.Background()
	o, entries := joinQueue(t, s, 4, 4)
	// Two late ones from before T0 whose ranks are in the opposite order
	// of their joins.
	var x1, x2 booking.QueueEntry
	for {
		x1 = booking.NewQueueEntry(o, booking.NewID(), onSaleT0.Add(-10*time.Second))
		x2 = booking.NewQueueEntry(o, booking.NewID(), onSaleT0.Add(-5*time.Second))
		if x2.Rank < x1.Rank {
			break
		}
	}
	// The four from before T0 and the first after.
	if n, err := booking.NumberQueueStep(ctx, s.Store, fixed(settled), o.ID, 5); err != nil || n != 5 {
		t.Fatalf("NumberQueueStep = %d, %v; want 5", n, err)
	}
	for _, x := range []booking.QueueEntry{x2, x1} { // stored against join order
		if err := s.JoinQueue(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	if n := numberQueue(t, s, o.ID, settled.Add(time.Second), 1000); n != 5 {
		t.Fatalf("numbered %d more, want 5", n)
	}
	order := queueOrder(entries)
	order = slices.Insert(order, 5, x1, x2)
	wantQueueOrder(t, s, order, len(order))
}

func newShowID(t *testing.T, s store) string {
	t.Helper()
	sh, _ := newShow(t, s, 1, 2, later)
	return sh.ID
}

func sameSegment(a, b booking.Segment) bool {
	return a.From.Equal(b.From) && a.Rate == b.Rate && a.Paused == b.Paused
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// testSalesOpening: an admin's sales opening (SetSalesOpeningStep) is
// stored, read back by the show and the listing, refuses holds before
// it, and clears; an unknown show is not found, a cancelled one and one
// an open on-sale covers are ECONFLICT with nothing changed, and once that
// on-sale closed the admin sets it.
func testSalesOpening(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	opens := base.Add(90*time.Minute + 123456789) // with nanoseconds, which both stores keep
	listed := func(now time.Duration) booking.Show {
		t.Helper()
		up, err := s.UpcomingShows(ctx, base, 100, at(now))
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range up {
			if sh.ID == show.ID {
				return sh.Show
			}
		}
		t.Fatalf("UpcomingShows does not list the show")
		return booking.Show{}
	}

	got, err := booking.SetSalesOpeningStep(ctx, s.Store, fixed(base), show.ID, opens)
	if err != nil || !got.SalesOpenAt.Equal(opens) {
		t.Fatalf("SetSalesOpeningStep = %v, %v; want the show opening at %v", got.SalesOpenAt, err, opens)
	}
	if stored, _ := s.Show(ctx, show.ID); !stored.SalesOpenAt.Equal(opens) {
		t.Errorf("Show opens at %v, want %v", stored.SalesOpenAt, opens)
	}
	if sh := listed(0); !sh.SalesOpenAt.Equal(opens) {
		t.Errorf("UpcomingShows: opens at %v, want %v", sh.SalesOpenAt, opens)
	}
	err = s.HoldSeats(ctx, newHold(show.ID, "early", at(time.Hour), "A1"), at(time.Hour))
	wantCode(t, "a hold before the opening", err, booking.EGONE)
	hold(t, s, show.ID, "on-time", at(2*time.Hour), "A1")

	// Cleared: no opening, in both reads; a hold at base is made.
	if _, err := booking.SetSalesOpeningStep(ctx, s.Store, fixed(base), show.ID, time.Time{}); err != nil {
		t.Fatalf("clearing the opening: %v", err)
	}
	if stored, _ := s.Show(ctx, show.ID); !stored.SalesOpenAt.IsZero() {
		t.Errorf("Show after clearing opens at %v, want none", stored.SalesOpenAt)
	}
	if sh := listed(0); !sh.SalesOpenAt.IsZero() {
		t.Errorf("UpcomingShows after clearing: opens at %v, want none", sh.SalesOpenAt)
	}
	hold(t, s, show.ID, "cleared", at(0), "A3")

	_, err = booking.SetSalesOpeningStep(ctx, s.Store, fixed(base), booking.NewID(), opens)
	wantErr(t, "the opening of an unknown show", err, booking.ErrShowNotFound)

	// Covered by an open on-sale: refused, the on-sale's T0 kept.
	r := onSaleRequest("covering")
	r.ShowIDs = []string{show.ID}
	o := createOnSale(t, s, r)
	_, err = booking.SetSalesOpeningStep(ctx, s.Store, fixed(base.Add(time.Minute)), show.ID, opens)
	if booking.ErrorCode(err) != booking.ECONFLICT || !strings.Contains(booking.ErrorMessage(err), `"covering"`) {
		t.Errorf("the opening of a covered show: %v, want ECONFLICT naming the on-sale", err)
	}
	if stored, _ := s.Show(ctx, show.ID); !stored.SalesOpenAt.Equal(onSaleT0) {
		t.Errorf("a refused opening changed it: %v, want T0 %v", stored.SalesOpenAt, onSaleT0)
	}
	if _, err := booking.CloseOnSaleStep(ctx, s.Store, fixed(base.Add(2*time.Minute)), o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := booking.SetSalesOpeningStep(ctx, s.Store, fixed(base.Add(3*time.Minute)), show.ID, opens); err != nil {
		t.Errorf("the opening of a show whose on-sale closed: %v", err)
	}

	// Cancelled: refused, unchanged.
	if _, _, err := s.CancelShow(ctx, show.ID, at(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = booking.SetSalesOpeningStep(ctx, s.Store, fixed(base.Add(5*time.Minute)), show.ID, time.Time{})
	wantCode(t, "the opening of a cancelled show", err, booking.ECONFLICT)
	if stored, _ := s.Show(ctx, show.ID); !stored.SalesOpenAt.Equal(opens) {
		t.Errorf("a refused opening of a cancelled show changed it: %v, want %v", stored.SalesOpenAt, opens)
	}
}
