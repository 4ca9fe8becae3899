package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// The on-sale's steps (SPEC §18). Serialisation: a show is covered by at
// most one open on-sale, which a creation decides on on-sales it only
// reads, so every creation serialises on each show it covers
// (onSaleShowKey): of two creations covering one show at once, one runs
// after the other and finds it covered. The other steps write the one
// on-sale they change, so two of them at once conflict on it.

func onSaleShowKey(showID string) string { return "onsale:show:" + showID }

// CreateOnSaleStep stores a new on-sale (ValidateOnSale first) covering
// r.ShowIDs, or r.MovieID's shows that exist at the transaction's instant,
// are not cancelled and have not started, and sets each covered show's
// sales opening to T0, in one step. An unknown show is ErrShowNotFound
// (as EINVALID naming it); a show covered by another open on-sale is
// EINVALID naming it; a movie with no show to cover is EINVALID.
func CreateOnSaleStep(ctx context.Context, st Transactor, clock func() time.Time, r OnSaleRequest) (OnSale, error) {
	r, err := ValidateOnSale(r)
	if err != nil {
		return OnSale{}, err
	}
	var out OnSale
	err = st.Atomically(ctx, clock, func(tx Tx) error {
		now := tx.Now()
		if !r.ClosesAt.After(now) {
			return InvalidFields{{Field: "closes_at", Message: "The closing time has passed already."}}
		}
		shows, err := onSaleShows(tx, r, now)
		if err != nil {
			return err
		}
		ids := make([]string, len(shows))
		for i, sh := range shows {
			ids[i] = sh.ID
		}
		if err := claimShows(tx, ids, "", now); err != nil {
			return err
		}
		out = OnSale{
			ID: r.ID, Name: r.Name, OpensAt: r.OpensAt, ClosesAt: r.ClosesAt, PassTTL: r.PassTTL,
			Key: r.Key, Shows: ids, Segments: []Segment{{From: r.OpensAt, Rate: r.Rate}}, CreatedAt: now,
		}
		if err := tx.InsertOnSale(out); err != nil {
			return err
		}
		for _, id := range ids {
			if err := tx.SetShowSalesOpen(id, r.OpensAt); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// claimShows serialises on each of ids (onSaleShowKey), in one order
// whoever asks, and then refuses one covered by an open on-sale other
// than self (EINVALID naming the show and that on-sale).
func claimShows(tx Tx, ids []string, self string, now time.Time) error {
	id, o, found, err := coveringOnSale(tx, ids, self, now)
	if err != nil || !found {
		return err
	}
	return coveredError(tx, id, o)
}

// coveringOnSale serialises on each of ids (onSaleShowKey), in one order
// whoever asks, and then finds the first of them covered by an open
// on-sale other than self, and that on-sale.
func coveringOnSale(tx Tx, ids []string, self string, now time.Time) (id string, o OnSale, found bool, err error) {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	for _, id := range slices.Compact(sorted) {
		if err := tx.Serialize(onSaleShowKey(id)); err != nil {
			return "", OnSale{}, false, err
		}
	}
	others, err := tx.OpenOnSalesCovering(ids, now)
	if err != nil {
		return "", OnSale{}, false, err
	}
	for _, id := range ids {
		for _, o := range others {
			if o.ID != self && o.Covers(id) {
				return id, o, true, nil
			}
		}
	}
	return "", OnSale{}, false, nil
}

// showLabel names a show in an on-sale's messages: its film and start.
func showLabel(sh Show) string {
	return sh.Movie.Title + " at " + sh.StartsAt.UTC().Format("2 Jan 2006 15:04 MST")
}

// coveredError is the EINVALID of show id covered by on-sale o already.
func coveredError(tx Tx, id string, o OnSale) error {
	what := fmt.Sprintf("%q", Truncate(id, 40))
	sh, err := tx.ShowByID(id)
	switch {
	case err == nil:
		what = showLabel(sh)
	case !errors.Is(err, ErrShowNotFound):
		return err
	}
	return InvalidFields{{Field: "show", Message: fmt.Sprintf("The show %s is covered by the on-sale %q already.", what, o.Name)}}
}

// onSaleShows are the shows r covers: those named, each once, or its
// movie's that are not cancelled and start after now.
func onSaleShows(tx Tx, r OnSaleRequest, now time.Time) ([]Show, error) {
	if r.MovieID != "" {
		all, err := tx.ShowsOfMovie(r.MovieID)
		if err != nil {
			return nil, err
		}
		var shows []Show
		for _, sh := range all {
			if !sh.Cancelled() && sh.StartsAt.After(now) {
				shows = append(shows, sh)
			}
		}
		if len(shows) == 0 {
			return nil, InvalidFields{{Field: "movie", Message: "This movie has no show to come."}}
		}
		if len(shows) > MaxOnSaleShows {
			return nil, InvalidFields{{Field: "movie", Message: fmt.Sprintf("This movie has %d shows to come, and an on-sale covers at most %d: choose its shows.", len(shows), MaxOnSaleShows)}}
		}
		return shows, nil
	}
	ids := slices.Clone(r.ShowIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	shows := make([]Show, 0, len(ids))
	for _, id := range ids {
		sh, err := tx.ShowByID(id)
		if errors.Is(err, ErrShowNotFound) {
			return nil, InvalidFields{{Field: "show", Message: fmt.Sprintf("There is no show %q.", Truncate(id, 40))}}
		}
		if err != nil {
			return nil, err
		}
		if sh.Cancelled() {
			return nil, InvalidFields{{Field: "show", Message: fmt.Sprintf("The show %s was cancelled.", showLabel(sh))}}
		}
		shows = append(shows, sh)
	}
	return shows, nil
}

// changeOnSale reads on-sale id, refuses a closed one (ErrOnSaleClosed),
// lets change edit it at the transaction's instant and stores it.
func changeOnSale(ctx context.Context, st Transactor, clock func() time.Time, id string, change func(tx Tx, o *OnSale, now time.Time) error) (OnSale, error) {
	var out OnSale
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		o, err := tx.OnSaleByID(id)
		if err != nil {
			return err
		}
		now := tx.Now()
		if o.Closed(now) {
			return ErrOnSaleClosed
		}
		if err := change(tx, &o, now); err != nil {
			return err
		}
		out = o
		return tx.SetOnSale(o)
	})
	return out, err
}

// PauseOnSaleStep pauses admission from now (before T0: from T0).
func PauseOnSaleStep(ctx context.Context, st Transactor, clock func() time.Time, id string) (OnSale, error) {
	return changeOnSale(ctx, st, clock, id, func(_ Tx, o *OnSale, now time.Time) error {
		cur := o.SegmentAt(latest(now, o.OpensAt))
		o.Segments = WithSegment(o.Segments, o.OpensAt, now, cur.Rate, true)
		return nil
	})
}

// ResumeOnSaleStep resumes admission at the rate it had.
func ResumeOnSaleStep(ctx context.Context, st Transactor, clock func() time.Time, id string) (OnSale, error) {
	return changeOnSale(ctx, st, clock, id, func(_ Tx, o *OnSale, now time.Time) error {
		cur := o.SegmentAt(latest(now, o.OpensAt))
		o.Segments = WithSegment(o.Segments, o.OpensAt, now, cur.Rate, false)
		return nil
	})
}

// SetOnSaleRateStep changes the admission rate from now (CheckRate), and
// keeps a pause.
func SetOnSaleRateStep(ctx context.Context, st Transactor, clock func() time.Time, id string, rate int) (OnSale, error) {
	if err := CheckRate(rate); err != nil {
		return OnSale{}, err
	}
	return changeOnSale(ctx, st, clock, id, func(_ Tx, o *OnSale, now time.Time) error {
		cur := o.SegmentAt(latest(now, o.OpensAt))
		o.Segments = WithSegment(o.Segments, o.OpensAt, now, rate, cur.Paused)
		return nil
	})
}

// CloseOnSaleStep ends the on-sale now: its shows need no pass and its
// queue takes no one. Closing a closed on-sale changes nothing.
func CloseOnSaleStep(ctx context.Context, st Transactor, clock func() time.Time, id string) (OnSale, error) {
	var out OnSale
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		o, err := tx.OnSaleByID(id)
		if err != nil {
			return err
		}
		out = o
		if now := tx.Now(); !o.Closed(now) {
			out.ClosedAt, out.ClosesAt = now, now
			return tx.SetOnSale(out)
		}
		return nil // closed already: as it is
	})
	return out, err
}

// ExtendOnSaleStep moves the on-sale's closing to closesAt, later than
// it was. Like a creation, it serialises on each show it covers and
// refuses a show covered by another open on-sale (EINVALID naming it):
// an extension decided at a moment before the close may run after a
// creation that found the show free at the close, and in MongoDB the
// two write different documents.
func ExtendOnSaleStep(ctx context.Context, st Transactor, clock func() time.Time, id string, closesAt time.Time) (OnSale, error) {
	return changeOnSale(ctx, st, clock, id, func(tx Tx, o *OnSale, now time.Time) error {
		if !closesAt.After(o.ClosesAt) {
			return InvalidFields{{Field: "closes_at", Message: "The new closing time must be later than the current one."}}
		}
		if !storableTime(closesAt) {
			return InvalidFields{{Field: "closes_at", Message: "The closing time is too far off."}}
		}
		if err := claimShows(tx, o.Shows, o.ID, now); err != nil {
			return err
		}
		o.ClosesAt = closesAt
		return nil
	})
}

// SetSalesOpeningStep sets a show's sales opening (SPEC §10) to at, or
// clears it when at is zero, in one step: ErrShowNotFound for an unknown
// show; ECONFLICT for a cancelled one, and for one an open on-sale covers
// (the on-sale set its opening to its T0 and keeps it). It serialises on
// the show as an on-sale's creation does (onSaleShowKey), so of an opening
// set and an on-sale created over the show at once, one runs after the
// other and sees it. It returns the show as it is afterwards.
func SetSalesOpeningStep(ctx context.Context, st Transactor, clock func() time.Time, showID string, at time.Time) (Show, error) {
	var out Show
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		show, err := tx.ShowByID(showID)
		if err != nil {
			return err
		}
		if show.Cancelled() {
			return Errorf(ECONFLICT, "This show was cancelled: it has no sales to open.")
		}
		_, o, covered, err := coveringOnSale(tx, []string{showID}, "", tx.Now())
		if err != nil {
			return err
		}
		if covered {
			return Errorf(ECONFLICT, "The on-sale %q covers this show and sets its sales opening (its opening time); change or close the on-sale instead.", o.Name)
		}
		if err := tx.SetShowSalesOpen(showID, at); err != nil {
			return err
		}
		show.SalesOpenAt = at
		out = show
		return nil
	})
	return out, err
}
