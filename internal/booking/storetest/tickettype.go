package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// typeTests are ticket types, price cards and shows' price tables (SPEC
// §15).
var typeTests = []test{
	{"TypesInOrder", testTypesInOrder},
	{"TypeRefused", testTypeRefused},
	{"TypeInUseByCard", testTypeInUseByCard},
	{"TypeInUseByShow", testTypeInUseByShow},
	{"CardRules", testCardRules},
	{"CardShowCopies", testCardShowCopies},
	{"CardUnfitForScreen", testCardUnfitForScreen},
	{"OldShowIsStandard", testOldShowIsStandard},
	{"ShowPriceGains", testShowPriceGains},
	{"ShowPriceChangeWhileHeld", testShowPriceChangeWhileHeld},
	{"ShowPriceChangeWhilePaying", testShowPriceChangeWhilePaying},
	{"TaxRateAndRent", testTaxRateAndRent},
	{"CardOfAnotherTheatre", testCardOfAnotherTheatre},
	{"EnsureTypesTwice", testEnsureTypesTwice},
	{"CurrencyKeptByACard", testCurrencyKeptByACard},
	{"TheatreDeletedWithItsTypes", testTheatreDeletedWithItsTypes},
}

var (
	adultType  = booking.TicketType{ID: "adult", Name: "Adult", Online: true, BoxOffice: true}
	childType  = booking.TicketType{ID: "child", Name: "Child", Note: "under 12", Accompanied: true, Online: true, BoxOffice: true}
	compType   = booking.TicketType{ID: "comp", Name: "Comp", BoxOffice: true}
	twoCatsLay = "C = Classic\nP = Prime\nA  CC\nB  PP\n"
)

// typesTheatre stores a theatre with a two-category screen and the types
// adult, child and comp, and returns them.
func typesTheatre(t *testing.T, s store) (booking.Theatre, booking.Screen) {
	t.Helper()
	ctx := context.Background()
	th := booking.Theatre{ID: booking.NewID(), Name: "Typed", City: "Pune", TimeZone: "Asia/Kolkata", Currency: currency}
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatal(err)
	}
	sc := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "Audi 1", Layout: twoCatsLay}
	if err := s.SaveScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	for _, ty := range []booking.TicketType{adultType, childType, compType} {
		if err := booking.SaveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "", ty); err != nil {
			t.Fatalf("SaveTicketTypeStep(%s): %v", ty.ID, err)
		}
	}
	return th, sc
}

func ticketTypes(t *testing.T, s store, theatreID string) []booking.TicketType {
	t.Helper()
	var out []booking.TicketType
	err := s.Atomically(context.Background(), time.Now, func(tx booking.Tx) (err error) {
		out, err = tx.TicketTypes(theatreID)
		return err
	})
	if err != nil {
		t.Fatalf("TicketTypes: %v", err)
	}
	read, err := s.Store.TicketTypes(context.Background(), theatreID)
	if diff := cmp.Diff(out, read); err != nil || diff != "" {
		t.Errorf("Store.TicketTypes (%v) differs from the step's read (-step +store):\n%s", err, diff)
	}
	return out
}

func showPrices(t *testing.T, s store, showID string) booking.ShowPrices {
	t.Helper()
	var out booking.ShowPrices
	err := s.Atomically(context.Background(), time.Now, func(tx booking.Tx) (err error) {
		out, err = tx.ShowPrices(showID)
		return err
	})
	if err != nil {
		t.Fatalf("ShowPrices: %v", err)
	}
	return out
}

var fullCard = booking.PriceTable{
	{Category: "Classic", Type: "adult", Price: 200_00},
	{Category: "Classic", Type: "child", Price: 100_00},
	{Category: "Classic", Type: "comp", Price: 0},
	{Category: "Prime", Type: "adult", Price: 300_00},
	{Category: "Prime", Type: "child", Price: 150_00},
}

func saveCard(t *testing.T, s store, th booking.Theatre, cells booking.PriceTable) booking.PriceCard {
	t.Helper()
	c := booking.PriceCard{ID: booking.NewID(), TheatreID: th.ID, Name: "Weekday", Cells: cells}
	if err := booking.SavePriceCardStep(context.Background(), s.Store, time.Now, c, []string{"Classic", "Prime"}); err != nil {
		t.Fatalf("SavePriceCardStep: %v", err)
	}
	return c
}

func testTypesInOrder(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	same(t, "types as added", []booking.TicketType{adultType, childType, compType}, ticketTypes(t, s, th.ID))
	if err := booking.MoveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "comp", true); err != nil {
		t.Fatal(err)
	}
	if err := booking.MoveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "adult", true); err != nil { // first stays first
		t.Fatal(err)
	}
	same(t, "types after comp moved up", []booking.TicketType{adultType, compType, childType}, ticketTypes(t, s, th.ID))
	edited := childType
	edited.Name, edited.Note, edited.DoorCheck = "Kid", "under 10", true
	if err := booking.SaveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "child", edited); err != nil {
		t.Fatal(err)
	}
	same(t, "types after an edit", []booking.TicketType{adultType, compType, edited}, ticketTypes(t, s, th.ID))
	if err := booking.DeleteTicketTypeStep(ctx, s.Store, time.Now, th.ID, "comp"); err != nil {
		t.Fatalf("delete an unused type: %v", err)
	}
	same(t, "types after a deletion", []booking.TicketType{adultType, edited}, ticketTypes(t, s, th.ID))
	wantErr(t, "delete a missing type", booking.DeleteTicketTypeStep(ctx, s.Store, time.Now, th.ID, "comp"), booking.ErrTicketTypeNotFound)
	// A theatre without types sells the implicit standard.
	other := booking.Theatre{ID: booking.NewID(), Name: "Plain", City: "Pune", TimeZone: "Asia/Kolkata"}
	if err := s.SaveTheatre(ctx, other); err != nil {
		t.Fatal(err)
	}
	same(t, "types of a theatre without", []booking.TicketType{booking.StandardType()}, booking.TypesOf(ticketTypes(t, s, other.ID)))
}

func testTypeRefused(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	for name, ty := range map[string]booking.TicketType{
		"standard":  {ID: "standard", Name: "Std", Online: true},
		"taken":     {ID: "adult", Name: "Again", Online: true},
		"bad id":    {ID: "Adult!", Name: "X", Online: true},
		"nowhere":   {ID: "ghost", Name: "Ghost"},
		"bidi note": {ID: "x", Name: "X", Note: "a\u202eb", Online: true},
	} {
		err := booking.SaveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "", ty)
		var f booking.InvalidFields
		if !errors.As(err, &f) {
			t.Errorf("%s: SaveTicketTypeStep = %v, want field errors", name, err)
		}
	}
	same(t, "types after refusals", []booking.TicketType{adultType, childType, compType}, ticketTypes(t, s, th.ID))
}

func testTypeInUseByCard(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	saveCard(t, s, th, fullCard)
	wantCode(t, "delete a type a card prices", booking.DeleteTicketTypeStep(ctx, s.Store, time.Now, th.ID, "child"), booking.ECONFLICT)
	online := compType
	online.Online = true
	wantCode(t, "change where a priced type is sold", booking.SaveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "comp", online), booking.ECONFLICT)
	renamed := childType
	renamed.Name = "Young"
	if err := booking.SaveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "child", renamed); err != nil {
		t.Errorf("rename a priced type: %v", err)
	}
	same(t, "types after the 409s", []booking.TicketType{adultType, renamed, compType}, ticketTypes(t, s, th.ID))
}

func testTypeInUseByShow(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	if err := booking.DeletePriceCardStep(ctx, s.Store, time.Now, card.ID); err != nil {
		t.Fatalf("delete the card: %v", err)
	}
	wantCode(t, "delete a type a show sells", booking.DeleteTicketTypeStep(ctx, s.Store, time.Now, th.ID, "child"), booking.ECONFLICT)
	// A deleted show takes its table with it: the type may go.
	if err := s.DeleteShow(ctx, show.ID); err != nil {
		t.Fatal(err)
	}
	if got := showPrices(t, s, show.ID); got.Stored() {
		t.Errorf("a deleted show's table stays: %+v", got)
	}
	if err := booking.DeleteTicketTypeStep(ctx, s.Store, time.Now, th.ID, "child"); err != nil {
		t.Errorf("delete a type no show sells any more: %v", err)
	}
}

// cardShow creates a show on sc with card cardID.
func cardShow(t *testing.T, s store, th booking.Theatre, sc booking.Screen, cardID string) booking.Show {
	t.Helper()
	m := booking.Movie{ID: booking.NewID(), Title: "Priced", RuntimeMin: 100}
	if err := s.SaveMovie(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	show, seats, err := booking.PlanShow(booking.NewID(), m, th, sc, later.In(time.UTC).Format(booking.LocalTimeLayout),
		map[string]string{"Classic": "1", "Prime": "1"}, base)
	if err != nil {
		t.Fatal(err)
	}
	out, err := booking.CreateCardShowStep(context.Background(), s.Store, time.Now, show, seats, nil, cardID)
	if err != nil {
		t.Fatalf("CreateCardShowStep: %v", err)
	}
	return out
}

func testCardRules(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	cases := map[string]struct {
		cells booking.PriceTable
		field string
	}{
		"online zero": {append(fullCard[:4:4], booking.PriceCell{Category: "Prime", Type: "child", Price: 0}), booking.CellField("Prime", "child")},
		"no online":   {booking.PriceTable{{Category: "Classic", Type: "adult", Price: 1}, {Category: "Prime", Type: "comp", Price: 0}, {Category: "Classic", Type: "comp", Price: 0}}, booking.CategoryField("Prime")},
		"no type":     {append(fullCard[:5:5], booking.PriceCell{Category: "Prime", Type: "ghost", Price: 5}), booking.CellField("Prime", "ghost")},
		"too dear":    {append(fullCard[:4:4], booking.PriceCell{Category: "Prime", Type: "child", Price: booking.MaxPrice + 1}), booking.CellField("Prime", "child")},
	}
	for name, c := range cases {
		card := booking.PriceCard{ID: booking.NewID(), TheatreID: th.ID, Name: name, Cells: c.cells}
		err := booking.SavePriceCardStep(ctx, s.Store, time.Now, card, []string{"Classic", "Prime"})
		var f booking.InvalidFields
		if !errors.As(err, &f) || f.For(c.field) == "" {
			t.Errorf("%s: SavePriceCardStep = %v, want a field error on %s", name, err, c.field)
		}
	}
	// A valid card is stored in the grid's order, and read back.
	shuffled := booking.PriceTable{fullCard[4], fullCard[2], fullCard[0], fullCard[3], fullCard[1]}
	card := saveCard(t, s, th, shuffled)
	var got []booking.PriceCard
	err := s.Atomically(ctx, time.Now, func(tx booking.Tx) (err error) {
		got, err = tx.PriceCards(th.ID)
		return err
	})
	card.Cells = fullCard
	if diff := cmp.Diff([]booking.PriceCard{card}, got); err != nil || diff != "" {
		t.Errorf("PriceCards (%v) (-want +got):\n%s", err, diff)
	}
	if read, err := s.Store.PriceCards(ctx, th.ID); err != nil || !cmp.Equal(got, read) {
		t.Errorf("Store.PriceCards = %+v, %v; want %+v", read, err, got)
	}
	if read, err := s.Store.PriceCard(ctx, card.ID); err != nil || !cmp.Equal(card, read) {
		t.Errorf("Store.PriceCard = %+v, %v; want %+v", read, err, card)
	}
	if err := booking.DeletePriceCardStep(ctx, s.Store, time.Now, card.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store.PriceCard(ctx, card.ID); !errors.Is(err, booking.ErrPriceCardNotFound) {
		t.Errorf("Store.PriceCard of a deleted card: %v, want ErrPriceCardNotFound", err)
	}
	wantErr(t, "delete it again", booking.DeletePriceCardStep(ctx, s.Store, time.Now, card.ID), booking.ErrPriceCardNotFound)
}

func testCardShowCopies(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	want := booking.ShowPrices{Types: []booking.TicketType{adultType, childType, compType}, Cells: fullCard}
	same(t, "the show's table", want, showPrices(t, s, show.ID))
	seats, stored, types, err := s.Store.ShowPricing(ctx, show.ID)
	if err != nil || !cmp.Equal(want, stored) || len(seats) != 4 || !cmp.Equal(types, want.Types) {
		t.Errorf("Store.ShowPricing = %d seats, %+v, %+v, %v; want 4 seats, the table and the theatre's types", len(seats), stored, types, err)
	}
	if _, _, _, err := s.Store.ShowPricing(ctx, "nope"); !errors.Is(err, booking.ErrShowNotFound) {
		t.Errorf("Store.ShowPricing of no show: %v, want ErrShowNotFound", err)
	}
	// Each seat costs its category's price of the first type sold online
	// that is not accompanied (adult, not the cheaper child).
	for _, seat := range getSeats(t, s, show.ID) {
		if wantP := map[string]booking.Money{"Classic": 200_00, "Prime": 300_00}[seat.Category]; seat.Price != wantP {
			t.Errorf("seat %s costs %d, want %d", seat.ID, seat.Price, wantP)
		}
	}
	// Later edits of the type and the card change new shows only.
	renamed := childType
	renamed.Name = "Kid"
	if err := booking.SaveTicketTypeStep(ctx, s.Store, time.Now, th.ID, "child", renamed); err != nil {
		t.Fatal(err)
	}
	same(t, "the show's table after the type's edit", want, showPrices(t, s, show.ID))
}

func testCardUnfitForScreen(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	sc := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "Gold", Layout: "R = Recliner\nA  RR\n"}
	if err := s.SaveScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	m := booking.Movie{ID: booking.NewID(), Title: "Priced", RuntimeMin: 100}
	if err := s.SaveMovie(ctx, m); err != nil {
		t.Fatal(err)
	}
	show, seats, err := booking.PlanShow(booking.NewID(), m, th, sc, later.Format(booking.LocalTimeLayout), map[string]string{"Recliner": "1"}, base)
	if err != nil {
		t.Fatal(err)
	}
	_, err = booking.CreateCardShowStep(ctx, s.Store, time.Now, show, seats, nil, card.ID)
	var f booking.InvalidFields
	if !errors.As(err, &f) || f.For("card") == "" {
		t.Errorf("a card without the screen's category: %v, want a field error on card", err)
	}
	if _, err := s.Show(ctx, show.ID); !errors.Is(err, booking.ErrShowNotFound) {
		t.Errorf("the refused show was stored: %v", err)
	}
}

// testOldShowIsStandard: a show stored without a table sells the implicit
// standard type at its seats' prices.
func testOldShowIsStandard(t *testing.T, s store) {
	show, seats := newShow(t, s, 2, 2, later)
	stored := showPrices(t, s, show.ID)
	if stored.Stored() {
		t.Fatalf("a show made without a table has one: %+v", stored)
	}
	want := booking.ShowPrices{Types: []booking.TicketType{booking.StandardType()}, Cells: booking.PriceTable{
		{Category: "Classic", Type: "standard", Price: classicPrice}, {Category: "Prime", Type: "standard", Price: primePrice}}}
	same(t, "the implicit table", want, booking.ShowPricesOf(stored, booking.Categories(seats)))
}

func standardTable(classic, prime booking.Money) booking.ShowPrices {
	return booking.ShowPrices{Types: []booking.TicketType{booking.StandardType()}, Cells: booking.PriceTable{
		{Category: "Classic", Type: "standard", Price: classic}, {Category: "Prime", Type: "standard", Price: prime}}}
}

// testShowPriceGains: while a seat is held, a show's table may gain a type
// and prices in cells not offered.
func testShowPriceGains(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 2, later)
	m := at(time.Minute)
	hold(t, s, show.ID, "o1", m, "A1")
	more := standardTable(classicPrice, primePrice)
	more.Types = append(more.Types, compType)
	more.Cells = append(more.Cells, booking.PriceCell{Category: "Classic", Type: "comp", Price: 0})
	if err := booking.SaveShowPricesStep(ctx, s.Store, m.Clock(), m.Rules, show.ID, more); err != nil {
		t.Fatalf("gain a type while held: %v", err)
	}
	more.Cells = more.Cells.Sorted([]string{"Classic", "Prime"}, more.Types)
	same(t, "the table gained (in the grid's order)", more, showPrices(t, s, show.ID))
	// The copied types stay as they are.
	changed := more
	changed.Types = []booking.TicketType{{ID: "standard", Name: "Renamed", Online: true, BoxOffice: true}, compType}
	wantCode(t, "rename a copied type", booking.SaveShowPricesStep(ctx, s.Store, m.Clock(), m.Rules, show.ID, changed), booking.EINVALID)
}

func testShowPriceChangeWhileHeld(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 2, later)
	m := at(time.Minute)
	hold(t, s, show.ID, "o1", m, "B1")
	dearer := standardTable(classicPrice, primePrice+100)
	wantCode(t, "change an offered price while held", booking.SaveShowPricesStep(ctx, s.Store, m.Clock(), m.Rules, show.ID, dearer), booking.ECONFLICT)
	if showPrices(t, s, show.ID).Stored() {
		t.Error("the refused edit stored a table")
	}
	removed := standardTable(classicPrice, primePrice)
	removed.Cells = removed.Cells[:1]
	removed.Types = append(removed.Types, compType)
	removed.Cells = append(removed.Cells, booking.PriceCell{Category: "Prime", Type: "comp", Price: 0})
	err := booking.SaveShowPricesStep(ctx, s.Store, m.Clock(), m.Rules, show.ID, removed)
	if booking.ErrorCode(err) != booking.EINVALID && booking.ErrorCode(err) != booking.ECONFLICT {
		t.Errorf("remove an offered price while held: %v, want 409 (or 422: Prime is not online)", err)
	}
	// Once the lock lapses (no payment), the change goes through and the
	// seats cost the new price.
	after := at(time.Minute + ttl)
	if err := booking.SaveShowPricesStep(ctx, s.Store, after.Clock(), after.Rules, show.ID, dearer); err != nil {
		t.Fatalf("change once the hold lapsed: %v", err)
	}
	for _, seat := range getSeats(t, s, show.ID) {
		if seat.Category == "Prime" && seat.Price != primePrice+100 {
			t.Errorf("seat %s costs %d after the change, want %d", seat.ID, seat.Price, primePrice+100)
		}
	}
	// The listing's price range follows.
	up, err := s.UpcomingShows(ctx, later, 10, after)
	if err != nil || len(up) != 1 || up[0].MinPrice != classicPrice || up[0].MaxPrice != primePrice+100 {
		t.Errorf("UpcomingShows after the change = %+v, %v; want the range %d to %d", up, err, classicPrice, primePrice+100)
	}
}

func testShowPriceChangeWhilePaying(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 2, later)
	m := at(time.Minute)
	h := hold(t, s, show.ID, "o1", m, "A1")
	pay(t, s, h, m)
	after := at(time.Minute + ttl + time.Second) // the lock lapsed; the payment is pending
	wantCode(t, "change an offered price while paying", booking.SaveShowPricesStep(ctx, s.Store, after.Clock(), after.Rules, show.ID,
		standardTable(classicPrice+1, primePrice)), booking.ECONFLICT)
}

func testTaxRateAndRent(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	if err := booking.SetTheatreTaxRateStep(ctx, s.Store, time.Now, th.ID, booking.TaxRates{Rate: 1250, Above: 10000, AboveRate: 1800}); err != nil {
		t.Fatal(err)
	}
	// Saving the theatre from its form keeps the rate.
	th.Name = "Typed Again"
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Theatre(ctx, th.ID); err != nil || got.Tax != (booking.TaxRates{Rate: 1250, Above: 10000, AboveRate: 1800}) || got.Name != th.Name {
		t.Errorf("Theatre = %+v, %v; want the rates 12.5 %%, 18 %% above 10000 and the new name", got, err)
	}
	m := booking.Movie{ID: booking.NewID(), Title: "Rented", RuntimeMin: 90}
	if err := s.SaveMovie(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := booking.SetMovieRentStep(ctx, s.Store, time.Now, m.ID, []int{50, 45, 40}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMovie(ctx, m); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Movie(ctx, m.ID); err != nil || got.Rent != "50,45,40" {
		t.Errorf("Movie = %+v, %v; want the rent 50,45,40", got, err)
	}
}

// priceWatcher is the store, whose steps record the price of each seat
// they read with SeatsOf in their last run.
type priceWatcher struct {
	booking.Store
	mu   sync.Mutex
	seen map[string]booking.Money
}

type watchedTx struct {
	booking.Tx
	w *priceWatcher
}

func (w *priceWatcher) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	return w.Store.Atomically(ctx, clock, func(tx booking.Tx) error {
		w.mu.Lock()
		w.seen = map[string]booking.Money{}
		w.mu.Unlock()
		return step(watchedTx{tx, w})
	})
}

func (t watchedTx) SeatsOf(showID string, ids []string, wholeRows bool) ([]booking.Seat, error) {
	seats, err := t.Tx.SeatsOf(showID, ids, wholeRows)
	t.w.mu.Lock()
	for _, s := range seats {
		t.w.seen[s.ID] = s.Price
	}
	t.w.mu.Unlock()
	return seats, err
}

// testRaceShowPriceEdit: a change of an offered price racing a hold of the
// show is 409, or comes before the hold (which then reads the new price):
// never after a hold it did not see.
func testRaceShowPriceEdit(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	m := at(time.Minute)
	for i := range sized(30, 8) {
		show, _ := newShow(t, s, 2, 2, later)
		w := &priceWatcher{Store: s.Store}
		newPrice := classicPrice + booking.Money(i+1)
		var holdErr, editErr error
		start := make(chan struct{})
		var wg sync.WaitGroup
		steps := []func(){
			func() {
				holdErr = booking.HoldSeatsStep(ctx, w, m.Clock(), newHold(show.ID, "o1", m, "A1"), m.Rules)
			},
			func() {
				editErr = booking.SaveShowPricesStep(ctx, s.Store, m.Clock(), m.Rules, show.ID, standardTable(newPrice, primePrice))
			},
		}
		if i%2 == 1 {
			steps[0], steps[1] = steps[1], steps[0]
		}
		for _, step := range steps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				step()
			}()
		}
		close(start)
		wg.Wait()
		if holdErr != nil {
			t.Fatalf("round %d: the hold failed: %v", i, holdErr)
		}
		switch {
		case editErr == nil && w.seen["A1"] != newPrice:
			t.Fatalf("round %d: the edit succeeded after a hold that read the price %d", i, w.seen["A1"])
		case editErr != nil && booking.ErrorCode(editErr) != booking.ECONFLICT:
			t.Fatalf("round %d: the edit: %v, want success or 409", i, editErr)
		case editErr != nil && w.seen["A1"] != classicPrice:
			t.Fatalf("round %d: the edit was refused, yet the hold read the price %d", i, w.seen["A1"])
		}
	}
}

// testCardOfAnotherTheatre: a show is made with a card of its screen's
// theatre only, and a card is saved for a theatre that exists.
func testCardOfAnotherTheatre(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	other, sc := typesTheatre(t, s)
	m := booking.Movie{ID: booking.NewID(), Title: "Elsewhere", RuntimeMin: 100}
	if err := s.SaveMovie(ctx, m); err != nil {
		t.Fatal(err)
	}
	show, seats, err := booking.PlanShow(booking.NewID(), m, other, sc, later.Format(booking.LocalTimeLayout),
		map[string]string{"Classic": "1", "Prime": "1"}, base)
	if err != nil {
		t.Fatal(err)
	}
	_, err = booking.CreateCardShowStep(ctx, s.Store, time.Now, show, seats, nil, card.ID)
	var f booking.InvalidFields
	if !errors.As(err, &f) || f.For("card") == "" {
		t.Errorf("a show with another theatre's card: %v, want a field error on card", err)
	}
	if _, err := s.Show(ctx, show.ID); !errors.Is(err, booking.ErrShowNotFound) {
		t.Errorf("the refused show was stored: %v", err)
	}
	orphan := booking.PriceCard{ID: booking.NewID(), TheatreID: "no-such-theatre", Name: "X", Cells: fullCard}
	wantErr(t, "a card of no theatre", booking.SavePriceCardStep(ctx, s.Store, time.Now, orphan, []string{"Classic", "Prime"}), booking.ErrTheatreNotFound)
}

// testEnsureTypesTwice: the demo's seeding adds each missing type once,
// after the theatre's own, however often it runs.
func testEnsureTypesTwice(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	senior := booking.TicketType{ID: "senior", Name: "Senior", DoorCheck: true, Online: true, BoxOffice: true}
	for range 2 {
		if err := booking.EnsureTicketTypesStep(ctx, s.Store, time.Now, th.ID, []booking.TicketType{adultType, senior}); err != nil {
			t.Fatalf("EnsureTicketTypesStep: %v", err)
		}
	}
	same(t, "types after ensuring twice", []booking.TicketType{adultType, childType, compType, senior}, ticketTypes(t, s, th.ID))
}

// testCurrencyKeptByACard (SPEC §10): a theatre's currency can change only
// while it has no show and no price card: a card's prices are in its
// minor units. With a card and no show a change is 409 and nothing of the
// edit is saved; once the card is gone the change goes through.
func testCurrencyKeptByACard(t *testing.T, s store) {
	ctx := context.Background()
	th, _ := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	edit := th
	edit.Name, edit.Currency = "Typed Again", "EUR"
	if edit.Currency == th.Currency {
		edit.Currency = "GBP"
	}
	wantCode(t, "SaveTheatre changing the currency of a theatre with a price card", s.SaveTheatre(ctx, edit), booking.ECONFLICT)
	if got, err := s.Theatre(ctx, th.ID); err != nil || got != th {
		t.Errorf("Theatre after a refused currency change = %+v, %v; want it unchanged, %+v", got, err, th)
	}
	if err := booking.DeletePriceCardStep(ctx, s.Store, time.Now, card.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTheatre(ctx, edit); err != nil {
		t.Fatalf("SaveTheatre changing the currency once the card is gone: %v", err)
	}
	if got, err := s.Theatre(ctx, th.ID); err != nil || got != edit {
		t.Errorf("Theatre = %+v, %v; want %+v", got, err, edit)
	}
}

// testTheatreDeletedWithItsTypes: deleting a theatre deletes its ticket
// types and price cards, so a theatre made again under its id starts with
// none.
func testTheatreDeletedWithItsTypes(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	saveCard(t, s, th, fullCard)
	if err := booking.DeleteScreenStep(ctx, s.Store, time.Now, sc.ID); err != nil {
		t.Fatal(err)
	}
	if err := booking.DeleteTheatreStep(ctx, s.Store, time.Now, th.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatal(err)
	}
	if got := ticketTypes(t, s, th.ID); len(got) != 0 {
		t.Errorf("the theatre made again has the deleted one's types %v", got)
	}
	if cards, err := s.Store.PriceCards(ctx, th.ID); err != nil || len(cards) != 0 {
		t.Errorf("the theatre made again has the deleted one's cards %v (%v)", cards, err)
	}
}
