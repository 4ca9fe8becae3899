package mongo

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

func TestDatabaseName(t *testing.T) {
	tests := []struct {
		name, uri, want string
	}{
		{"none", "mongodb://localhost:27017", DefaultDatabase},
		{"none with options", "mongodb://localhost:27017/?replicaSet=rs0", DefaultDatabase},
		{"named", "mongodb://mongo:27017/boxoffice_prod?replicaSet=rs0", "boxoffice_prod"},
		{"several hosts and credentials", "mongodb://u:p@a:27017,b:27018,c/tickets?replicaSet=rs0&w=majority", "tickets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := databaseName(tt.uri)
			if err != nil || got != tt.want {
				t.Errorf("databaseName(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
			}
		})
	}
	for _, uri := range []string{
		"postgres://localhost/x", "", "localhost:27017/x", "mongodb://", "mongodb:///x",
		"mongodb://localhost/a.b", "mongodb://localhost/a/b", "mongodb://localhost/a%20b",
		"mongodb://localhost/" + strings.Repeat("x", 64),
	} {
		if name, err := databaseName(uri); err == nil {
			t.Errorf("databaseName(%q) = %q, want an error", uri, name)
		}
	}
}

// TestDatabaseNameNeedsNoDNS: a mongodb+srv:// URI names its database
// without the SRV lookup that mongo.Connect does later (with its context).
func TestDatabaseNameNeedsNoDNS(t *testing.T) {
	tests := []struct{ uri, want string }{
		{"mongodb+srv://user:p%40ss@cluster0.invalid/tickets?retryWrites=true", "tickets"},
		{"mongodb+srv://cluster0.invalid/?appName=x", DefaultDatabase},
		{"mongodb+srv://cluster0.invalid", DefaultDatabase},
		{"mongodb://a/caf%C3%A9", "café"},
		{"mongodb://a/x?authSource=admin", "x"},
	}
	for _, tt := range tests {
		got, err := databaseName(tt.uri)
		if err != nil || got != tt.want {
			t.Errorf("databaseName(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
		}
	}
}

// TestOpenRefusesSecondaryReads needs no server: a read preference other
// than primary is refused before connecting, since reads outside
// transactions must see the hold that was just made.
func TestOpenRefusesSecondaryReads(t *testing.T) {
	for _, mode := range []string{"secondary", "secondaryPreferred", "primaryPreferred", "nearest"} {
		s, err := Open(context.Background(), "mongodb://127.0.0.1:1/x?readPreference="+mode)
		if err == nil {
			s.Close()
			t.Fatalf("Open with readPreference=%s succeeded", mode)
		}
		if !strings.Contains(err.Error(), "readPreference") {
			t.Errorf("readPreference=%s: error %q does not name readPreference", mode, err)
		}
	}
}

// TestClientTimeout needs no server: a timeoutMS below TxTimeout, above all
// timeoutMS=0, would leave WithTransaction no time to retry a write
// conflict, so it is refused before connecting, naming timeoutMS; any other
// URI gets clientTimeout or its own longer timeoutMS.
func TestClientTimeout(t *testing.T) {
	for _, uri := range []string{
		"mongodb://127.0.0.1:1/x?timeoutMS=0",
		"mongodb://127.0.0.1:1/x?replicaSet=rs0&timeoutMS=0",
		"mongodb://127.0.0.1:1/x?timeoutMS=1000",
		"mongodb://127.0.0.1:1/x?timeoutMS=4999",
	} {
		opts, err := clientOptions(uri)
		if err == nil {
			t.Errorf("clientOptions(%q) = timeout %v, want an error", uri, *opts.Timeout)
			continue
		}
		if !strings.Contains(err.Error(), "timeoutMS") {
			t.Errorf("clientOptions(%q): error %q does not name timeoutMS", uri, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		s, err := Open(ctx, uri)
		cancel()
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", uri)
		} else if !strings.Contains(err.Error(), "timeoutMS") {
			t.Errorf("Open(%q): error %q does not name timeoutMS", uri, err)
		}
	}
	tests := []struct {
		uri  string
		want time.Duration
	}{
		{"mongodb://localhost:27017/boxoffice?replicaSet=rs0", clientTimeout},
		{"mongodb://u:p@a:27017,b:27018/tickets?replicaSet=rs0&retryWrites=true&w=majority", clientTimeout},
		{"mongodb://localhost:27017/?timeoutMS=5000", TxTimeout},
		{"mongodb://localhost:27017/?timeoutMS=30000", 30 * time.Second},
	}
	for _, tt := range tests {
		opts, err := clientOptions(tt.uri)
		if err != nil {
			t.Errorf("clientOptions(%q): %v", tt.uri, err)
			continue
		}
		if opts.Timeout == nil || *opts.Timeout != tt.want {
			t.Errorf("clientOptions(%q) timeout = %v, want %v", tt.uri, opts.Timeout, tt.want)
		}
	}
}

func TestURIWithDatabase(t *testing.T) {
	tests := []struct{ uri, want string }{
		{"mongodb://localhost:27017", "mongodb://localhost:27017/t1"},
		{"mongodb://localhost:27017/", "mongodb://localhost:27017/t1"},
		{"mongodb://localhost:27017/?replicaSet=rs0", "mongodb://localhost:27017/t1?replicaSet=rs0"},
		{"mongodb://u:p@a:1,b:2/old?replicaSet=rs0&w=majority", "mongodb://u:p@a:1,b:2/t1?replicaSet=rs0&w=majority"},
		{"mongodb+srv://cluster0.example.net/old", "mongodb+srv://cluster0.example.net/t1"},
	}
	for _, tt := range tests {
		got, err := uriWithDatabase(tt.uri, "t1")
		if err != nil || got != tt.want {
			t.Errorf("uriWithDatabase(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
		}
		if name, err := databaseName(got); err != nil || name != "t1" {
			t.Errorf("databaseName(%q) = %q, %v; want t1", got, name, err)
		}
	}
}

// TestTopologyError is Open's replica-set check on the answers of the hello
// command from each kind of deployment.
func TestTopologyError(t *testing.T) {
	tests := []struct {
		name  string
		hello helloReply
		ok    bool
	}{
		{"replica set primary", helloReply{SetName: "rs0", IsReplicaSet: false, IsWritablePrimary: true}, true},
		{"mongos", helloReply{Msg: "isdbgrid", IsWritablePrimary: true}, true},
		{"standalone", helloReply{IsWritablePrimary: true}, false},
		{"standalone with another msg", helloReply{Msg: "hello"}, false},
		{"secondary over a direct connection", helloReply{SetName: "rs0"}, false},
		{"member not initiated", helloReply{IsReplicaSet: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := topologyError(tt.hello)
			if (err == nil) != tt.ok {
				t.Fatalf("topologyError(%+v) = %v; want ok=%v", tt.hello, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "replica set") {
				t.Errorf("the error does not say a replica set is needed: %v", err)
			}
			if tt.hello.IsReplicaSet && (err == nil || !strings.Contains(err.Error(), "rs.initiate()")) {
				t.Errorf("an uninitiated member's error does not say to run rs.initiate(): %v", err)
			}
		})
	}
}

// TestOpenUnreachable needs no server: Open must fail within its context,
// with a message, rather than hand out a store that fails later.
func TestOpenUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	s, err := Open(ctx, "mongodb://127.0.0.1:1/boxoffice?serverSelectionTimeoutMS=300&connectTimeoutMS=300")
	if err == nil {
		s.Close()
		t.Fatal("Open of an unreachable server succeeded")
	}
	if !strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("error %q does not say the database cannot be reached", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("Open took %v to fail", d)
	}
}

func TestOpenRejectsBadURI(t *testing.T) {
	for _, uri := range []string{"", "sqlite:data/x.db", "mongodb://"} {
		if s, err := Open(context.Background(), uri); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", uri)
		}
	}
}

// TestNoTTLIndexOnSeats: SPEC §1 forbids expiring seats in the database;
// only sessions have a TTL index.
func TestNoTTLIndexOnSeats(t *testing.T) {
	for col, models := range indexes() {
		for _, m := range models {
			var o options.IndexOptions
			for _, set := range m.Options.Opts {
				if err := set(&o); err != nil {
					t.Fatal(err)
				}
			}
			if o.ExpireAfterSeconds != nil && col != colSessions {
				t.Errorf("collection %s has a TTL index %v", col, *o.Name)
			}
		}
	}
}

// TestSeatIndexesServeTheirQueries needs no server. The map-order index is
// show_id then mapOrder, which ends with the seat_id tie-break, so an
// equality on show_id reads seats in map order; show_status_locked_reserve holds
// every field occupancyFields keeps, which keeps every field
// occupancyFacet reads and drops _id, so the counts can come from the index
// alone. show_grid, without the tie-break, is no longer made.
func TestSeatIndexesServeTheirQueries(t *testing.T) {
	keys := map[string]bson.D{}
	for _, m := range indexes()[colSeats] {
		var o options.IndexOptions
		for _, set := range m.Options.Opts {
			if err := set(&o); err != nil {
				t.Fatal(err)
			}
		}
		keys[*o.Name] = m.Keys.(bson.D)
	}
	if _, ok := keys["show_grid"]; ok {
		t.Error("Migrate still makes show_grid")
	}
	if last := mapOrder[len(mapOrder)-1]; last.Key != "seat_id" {
		t.Errorf("mapOrder %v does not end with seat_id", mapOrder)
	}
	want := append(bson.D{{Key: "show_id", Value: 1}}, mapOrder...)
	if diff := cmp.Diff(want, keys[showGridSeatIndex]); diff != "" {
		t.Errorf("%s is not show_id then mapOrder (-want +got):\n%s", showGridSeatIndex, diff)
	}

	status := keys[showStatusIndex]
	if len(status) == 0 || status[0].Key != "show_id" {
		t.Fatalf("%s = %v, want show_id first", showStatusIndex, status)
	}
	indexed := map[string]bool{}
	for _, e := range status {
		indexed[e.Key] = true
	}
	kept := map[string]bool{}
	for _, e := range occupancyFields[0].Value.(bson.D) {
		switch {
		case e.Key == "_id":
			if e.Value != 0 {
				t.Errorf("occupancyFields keeps _id, which %s does not hold", showStatusIndex)
			}
		case !indexed[e.Key]:
			t.Errorf("occupancyFields keeps %s, which %s does not hold", e.Key, showStatusIndex)
		default:
			kept[e.Key] = true
		}
	}
	read := map[string]bool{}
	for _, e := range occupancyFacet(booking.Rules{TTL: time.Minute, AllowGaps: true}.At(time.Now()))[0].Value.(bson.D) {
		for _, st := range e.Value.(bson.A) {
			stage := st.(bson.D)[0]
			switch stage.Key {
			case "$match":
				filterFields(stage.Value.(bson.D), read)
			case "$group":
				exprFields(stage.Value, read)
			case "$count":
			default:
				t.Errorf("facet %s has a stage %s this test does not read", e.Key, stage.Key)
			}
		}
	}
	if len(read) == 0 {
		t.Fatal("found no field that occupancyFacet reads")
	}
	for f := range read {
		if !kept[f] {
			t.Errorf("occupancyFacet reads %s, which occupancyFields does not keep", f)
		}
	}
}

// filterFields adds the fields a query filter reads to into.
func filterFields(filter bson.D, into map[string]bool) {
	for _, e := range filter {
		switch e.Key {
		case "$or", "$and", "$nor":
			for _, sub := range e.Value.(bson.A) {
				filterFields(sub.(bson.D), into)
			}
		default:
			into[e.Key] = true
		}
	}
}

// exprFields adds the fields an aggregation expression reads ("$field") to
// into.
func exprFields(v any, into map[string]bool) {
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(v, "$") && !strings.HasPrefix(v, "$$") {
			into[strings.TrimPrefix(v, "$")] = true
		}
	case bson.D:
		for _, e := range v {
			exprFields(e.Value, into)
		}
	case bson.A:
		for _, x := range v {
			exprFields(x, into)
		}
	}
}

// TestSeatsInOneGridPlace: seats that share a grid place come back by
// seat_id, in whatever order they were created.
func TestSeatsInOneGridPlace(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now().Add(time.Hour), Currency: "INR"}
	mk := func(row string, num, col int) booking.Seat {
		return booking.Seat{ID: row + strconv.Itoa(num), Row: row, Number: num, GridCol: col, Price: 100}
	}
	// Created against the map order: by place, then by id descending.
	if err := booking.CreateShowStep(ctx, s, time.Now, show, []booking.Seat{mk("C", 3, 1), mk("B", 2, 0), mk("A", 9, 1), mk("A", 1, 0)}); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
	want := []string{"A1", "B2", "A9", "C3"}
	seats, err := s.Seats(ctx, show.ID)
	if err != nil {
		t.Fatalf("Seats: %v", err)
	}
	var got []string
	for _, st := range seats {
		got = append(got, st.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Seats not in map order (-want +got):\n%s", diff)
	}
	avail, err := s.AvailableSeatIDs(ctx, show.ID, booking.Rules{TTL: time.Minute, AllowGaps: true}.At(time.Now()))
	if err != nil {
		t.Fatalf("AvailableSeatIDs: %v", err)
	}
	if diff := cmp.Diff(want, avail); diff != "" {
		t.Errorf("AvailableSeatIDs not in map order (-want +got):\n%s", diff)
	}
}

// TestSeatQueryPlans asks the server how it runs the seat reads: the map
// order comes from show_grid_seat without a sort in memory, and Occupancy
// and the overview's $lookup count seats from show_status_locked_reserve without
// fetching a seat document.
func TestSeatQueryPlans(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now().Add(time.Hour), Currency: "INR"}
	var seats []booking.Seat
	for r, row := range []string{"A", "B", "C"} {
		for c := range 4 {
			seats = append(seats, booking.Seat{ID: row + strconv.Itoa(c+1), Row: row, Number: c + 1, GridRow: r, GridCol: c, Price: 100})
		}
	}
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
	m := booking.Rules{TTL: time.Minute, AllowGaps: true}.At(time.Now())
	h := booking.Hold{ID: booking.NewHoldID(m.Now), ShowID: show.ID, Owner: "o1", SeatIDs: []string{"A1", "A2"}}
	if err := booking.HoldSeatsStep(ctx, s, m.Clock(), h, m.Rules); err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}

	find := explain(t, s, bson.D{
		{Key: "find", Value: colSeats}, {Key: "filter", Value: bson.D{{Key: "show_id", Value: show.ID}}}, {Key: "sort", Value: mapOrder},
	}, "queryPlanner")
	stages, indexNames := winningPlan(t, find)
	if !indexNames[showGridSeatIndex] || stages["SORT"] || stages["COLLSCAN"] {
		t.Errorf("seats in map order: winning plan has stages %v on indexes %v; want %s and no SORT:\n%s",
			stages, indexNames, showGridSeatIndex, find)
	}

	occ := explain(t, s, bson.D{
		{Key: "aggregate", Value: colSeats}, {Key: "pipeline", Value: occupancyPipeline(show.ID, m)}, {Key: "cursor", Value: bson.D{}},
	}, "queryPlanner")
	stages, indexNames = winningPlan(t, occ)
	if !indexNames[showStatusIndex] || stages["FETCH"] || stages["COLLSCAN"] {
		t.Errorf("Occupancy: winning plan has stages %v on indexes %v; want %s and no FETCH:\n%s",
			stages, indexNames, showStatusIndex, occ)
	}

	// The listing's seats left filter on the reserve being null or "",
	// which an index answers without the documents only while it is not
	// multikey and the field is not projected (MongoDB 6.2+).
	left := explain(t, s, bson.D{
		{Key: "aggregate", Value: colSeats}, {Key: "pipeline", Value: seatsLeftPipeline([]string{show.ID}, m)}, {Key: "cursor", Value: bson.D{}},
	}, "queryPlanner")
	stages, indexNames = winningPlan(t, left)
	if !indexNames[showStatusIndex] || stages["FETCH"] || stages["COLLSCAN"] {
		t.Errorf("seats left: winning plan has stages %v on indexes %v; want %s and no FETCH:\n%s",
			stages, indexNames, showStatusIndex, left)
	}

	// The overview's page of past shows, newest first: the starts_at
	// index walked backward, the page's skip and limit folded into it.
	past := explain(t, s, bson.D{
		{Key: "aggregate", Value: colShows}, {Key: "pipeline", Value: listOccupancyPipeline(booking.ShowFilter{Newest: true, To: m.Now, Limit: 51, Offset: 950}, m)}, {Key: "cursor", Value: bson.D{}},
	}, "queryPlanner")
	stages, indexNames = winningPlan(t, past)
	if !indexNames["starts_at"] || stages["SORT"] || stages["COLLSCAN"] {
		t.Errorf("past shows, newest first: winning plan has stages %v on indexes %v; want starts_at and no SORT:\n%s",
			stages, indexNames, past)
	}

	list := explain(t, s, bson.D{
		{Key: "aggregate", Value: colShows}, {Key: "pipeline", Value: listOccupancyPipeline(booking.ShowFilter{}, m)}, {Key: "cursor", Value: bson.D{}},
	}, "executionStats")
	lookup, ok := lookupStats(list, colSeats)
	if !ok {
		t.Fatalf("ListOccupancy: no $lookup from %s in the explain output:\n%s", colSeats, list)
	}
	used := false
	if vals, err := lookup.Lookup("indexesUsed").Array().Values(); err == nil {
		for _, v := range vals {
			used = used || v.StringValue() == showStatusIndex
		}
	}
	if docs, ok := lookup.Lookup("totalDocsExamined").AsInt64OK(); !used || !ok || docs != 0 {
		t.Errorf("ListOccupancy: the $lookup of seats used indexes %v and examined %v documents; want %s and none:\n%s",
			lookup.Lookup("indexesUsed"), lookup.Lookup("totalDocsExamined"), showStatusIndex, lookup)
	}
}

// TestBookingsByEmailPlan asks the server how it runs the counter's
// search by email: through email_created, with its collation, and in its
// order (no SORT); without the collation the index could not serve it.
func TestBookingsByEmailPlan(t *testing.T) {
	s := mustOpen(t)
	collation := bson.D{{Key: "locale", Value: emailCollation.Locale}, {Key: "strength", Value: emailCollation.Strength}}
	find := explain(t, s, bson.D{
		{Key: "find", Value: colBookings}, {Key: "filter", Value: bson.D{{Key: "email", Value: "Ana.K@example.com"}}},
		{Key: "sort", Value: newestFirst}, {Key: "limit", Value: 20}, {Key: "collation", Value: collation},
	}, "queryPlanner")
	stages, indexNames := winningPlan(t, find)
	if !indexNames[emailIndex] || stages["SORT"] || stages["COLLSCAN"] {
		t.Errorf("bookings by email: winning plan has stages %v on indexes %v; want %s and no SORT:\n%s",
			stages, indexNames, emailIndex, find)
	}
}

// explain runs the explain command on cmd at verbosity.
func explain(t *testing.T, s *Store, cmd bson.D, verbosity string) bson.Raw {
	t.Helper()
	var out bson.Raw
	err := s.Database().RunCommand(context.Background(), bson.D{
		{Key: "explain", Value: cmd}, {Key: "verbosity", Value: verbosity},
	}).Decode(&out)
	if err != nil {
		t.Fatalf("explain %v: %v", cmd[0], err)
	}
	return out
}

// winningPlan collects the stage and index names of every winningPlan in an
// explain output, wherever the server's version nests them (under
// stages[0].$cursor for an aggregation, under queryPlan for the slot-based
// engine).
func winningPlan(t *testing.T, explained bson.Raw) (stages, indexNames map[string]bool) {
	t.Helper()
	stages, indexNames = map[string]bool{}, map[string]bool{}
	var walk func(v bson.RawValue, inPlan bool)
	walk = func(v bson.RawValue, inPlan bool) {
		if doc, ok := v.DocumentOK(); ok {
			elems, err := doc.Elements()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range elems {
				switch key := e.Key(); {
				case inPlan && key == "stage":
					stages[e.Value().StringValue()] = true
				case inPlan && key == "indexName":
					indexNames[e.Value().StringValue()] = true
				case key == "rejectedPlans":
				default:
					walk(e.Value(), inPlan || key == "winningPlan")
				}
			}
		}
		if arr, ok := v.ArrayOK(); ok {
			vals, err := arr.Values()
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range vals {
				walk(x, inPlan)
			}
		}
	}
	walk(bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: explained}, false)
	if len(stages) == 0 {
		t.Fatalf("no winning plan in the explain output:\n%s", explained)
	}
	return stages, indexNames
}

// lookupStats finds, in an aggregation's explain output at executionStats,
// the stage of the $lookup from collection from, with its statistics
// (indexesUsed, totalDocsExamined, …) beside the $lookup's spec; at any
// depth, so that a mongos's output, which nests each shard's, works too.
func lookupStats(explained bson.Raw, from string) (bson.Raw, bool) {
	if spec, ok := explained.Lookup("$lookup").DocumentOK(); ok && spec.Lookup("from").StringValue() == from {
		return explained, true
	}
	elems, err := explained.Elements()
	if err != nil {
		return nil, false
	}
	for _, e := range elems {
		var docs []bson.Raw
		if doc, ok := e.Value().DocumentOK(); ok {
			docs = append(docs, doc)
		}
		if arr, ok := e.Value().ArrayOK(); ok {
			vals, _ := arr.Values()
			for _, v := range vals {
				if doc, ok := v.DocumentOK(); ok {
					docs = append(docs, doc)
				}
			}
		}
		for _, doc := range docs {
			if stage, ok := lookupStats(doc, from); ok {
				return stage, true
			}
		}
	}
	return nil, false
}

// TestOpenReplicaSet opens the deployment MONGODB_URI names, which must be a
// replica set or a sharded cluster, and checks what Open promises.
func TestOpenReplicaSet(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := s.checkTopology(ctx); err != nil {
		t.Fatalf("checkTopology on MONGODB_URI: %v", err)
	}
	if !strings.HasPrefix(s.Database().Name(), "boxoffice_test_") {
		t.Errorf("database %q is not the test's own", s.Database().Name())
	}
}

// TestOpenMigrates: Open alone (as boxoffice serve calls it) creates every
// index, above all show_owner_active, the only guard against two active
// holds of one session racing on disjoint seats.
func TestOpenMigrates(t *testing.T) {
	s := mustOpen(t)
	for col, models := range indexes() {
		specs := indexSpecs(t, s, col)
		have := map[any]bson.M{}
		for _, spec := range specs {
			have[spec["name"]] = spec
		}
		for _, m := range models {
			var o options.IndexOptions
			for _, set := range m.Options.Opts {
				if err := set(&o); err != nil {
					t.Fatal(err)
				}
			}
			if _, ok := have[*o.Name]; !ok {
				t.Errorf("after Open, %s has no index %s: %v", col, *o.Name, specs)
			}
		}
	}
	specs := indexSpecs(t, s, colHolds)
	for _, spec := range specs {
		if spec["name"] == "show_owner_active" && spec["unique"] != true {
			t.Errorf("show_owner_active is not unique: %v", spec)
		}
	}
	for _, spec := range indexSpecs(t, s, colPayments) {
		if spec["name"] == openCheckoutsIndex && spec["partialFilterExpression"] == nil {
			t.Errorf("%s is not partial: %v", openCheckoutsIndex, spec)
		}
	}
}

// TestMigrateConvertsRefundedBookings: a booking an older boxoffice marked
// refunded (refund_due with refunded_at) becomes refunded, once; one still
// due stays due, also when it was stored without refunded_at.
func TestMigrateConvertsRefundedBookings(t *testing.T) {
	dsn := freshDatabase(t)
	ctx := context.Background()
	name, err := databaseName(dsn)
	if err != nil {
		t.Fatal(err)
	}
	// open, not Open: the bookings are stored before the first Migrate.
	s, err := open(ctx, dsn, name)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	docs := []any{
		bson.D{{Key: "_id", Value: "refunded"}, {Key: "state", Value: "refund_due"}, {Key: "refunded_at", Value: int64(5)}},
		bson.D{{Key: "_id", Value: "due"}, {Key: "state", Value: "refund_due"}, {Key: "refunded_at", Value: int64(0)}},
		bson.D{{Key: "_id", Value: "due, older"}, {Key: "state", Value: "refund_due"}},
	}
	if _, err := s.col(colBookings).InsertMany(ctx, docs); err != nil {
		t.Fatalf("insert bookings: %v", err)
	}
	for range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
	}
	want := map[string]booking.BookingState{
		"refunded": booking.BookingRefunded, "due": booking.BookingRefundDue, "due, older": booking.BookingRefundDue,
	}
	for id, state := range want {
		b, err := s.Booking(ctx, id)
		if err != nil || b.State != state {
			t.Errorf("booking %q = %s, %v; want %s", id, b.State, err, state)
		}
	}
}

func TestMigrateIsIdempotentAndLeavesSeatsAlone(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("second Migrate: %v", err)
	}
	specs := indexSpecs(t, s, colSeats)
	var unique bool
	for _, spec := range specs {
		if _, ok := spec["expireAfterSeconds"]; ok {
			t.Errorf("seats has a TTL index: %v", spec)
		}
		if spec["name"] == "show_seat" && spec["unique"] == true {
			unique = true
		}
	}
	if !unique {
		t.Errorf("seats has no unique show_seat index: %v", specs)
	}
}

// TestTransactionDeadline: a step that cannot finish gives up at the
// store's transaction timeout instead of retrying for the driver's 120 s.
func TestTransactionDeadline(t *testing.T) {
	s := mustOpen(t)
	s.txTimeout = 200 * time.Millisecond
	start := time.Now()
	_, err := inTx(context.Background(), s, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("inTx = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("inTx took %v", d)
	}
}

// TestDuplicateShowIsRefused: seats are keyed by show and seat id.
func TestDuplicateShowIsRefused(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now(), Currency: "INR"}
	seats := []booking.Seat{{ID: "A1", Row: "A", Number: 1, Price: 100}, {ID: "A2", Row: "A", Number: 2, GridCol: 1, Price: 100}}
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); booking.ErrorCode(err) != booking.EINVALID {
		t.Errorf("second CreateShow = %v, want an EINVALID error", err)
	}
	if n, err := s.col(colSeats).CountDocuments(ctx, bson.D{{Key: "show_id", Value: show.ID}}); err != nil || n != 2 {
		t.Errorf("seats of the show = %d, %v; want 2", n, err)
	}
}

// TestCreateShowInBatches stores more seats than one InsertMany carries.
func TestCreateShowInBatches(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	show := booking.Show{ID: booking.NewID(), StartsAt: time.Now(), Currency: "INR"}
	var seats []booking.Seat
	for r := range 26 {
		for c := range 2*seatBatch/26 + 1 {
			row := string(rune('A' + r))
			seats = append(seats, booking.Seat{ID: row + strconv.Itoa(c+1), Row: row, Number: c + 1, GridRow: r, GridCol: c, Price: 100})
		}
	}
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
	o, err := s.Occupancy(ctx, show.ID, booking.Rules{TTL: time.Minute, AllowGaps: true}.At(time.Now()))
	if err != nil || o.Total != len(seats) || o.Available != len(seats) {
		t.Errorf("Occupancy = %+v, %v; want %d seats, all available", o, err, len(seats))
	}
}

// indexSpecs lists the indexes of collection col as the server describes
// them.
func indexSpecs(t testing.TB, s *Store, col string) []bson.M {
	t.Helper()
	ctx := context.Background()
	cur, err := s.col(col).Indexes().List(ctx)
	if err != nil {
		t.Fatalf("list indexes of %s: %v", col, err)
	}
	var specs []bson.M
	if err := cur.All(ctx, &specs); err != nil {
		t.Fatalf("list indexes of %s: %v", col, err)
	}
	return specs
}

// TestMigrateRetiresPaymentHoldIndex: a database made before payments
// could be replaced (SPEC §15) has the index "hold", unique over every
// payment of a hold, and payments without replaced_at. Migrate makes
// hold_live beside it (same keys, a partial filter: the server accepts
// both), gives the older payments replaced_at 0, so that they are in
// hold_live, and drops "hold"; an older release that makes "hold" again
// (a rollback, a rolling deploy) has it dropped at the next Migrate,
// though the conversion is recorded. Then a Pay of another choice can
// insert the payment that replaces one, while hold_live refuses a second
// live payment.
func TestMigrateRetiresPaymentHoldIndex(t *testing.T) {
	dsn := freshDatabase(t)
	ctx := context.Background()
	name, err := databaseName(dsn)
	if err != nil {
		t.Fatal(err)
	}
	s, err := open(ctx, dsn, name)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	oldHold := mongo.IndexModel{Keys: bson.D{{Key: "hold_id", Value: 1}}, Options: options.Index().SetName("hold").SetUnique(true)}
	if _, err := s.col(colPayments).Indexes().CreateOne(ctx, oldHold); err != nil {
		t.Fatal(err)
	}
	older := bson.D{{Key: "_id", Value: "p-old"}, {Key: "hold_id", Value: "h1"}, {Key: "state", Value: "pending"}, {Key: "created_at", Value: int64(1)}}
	if _, err := s.col(colPayments).InsertOne(ctx, older); err != nil {
		t.Fatal(err)
	}
	hasIndex := func(name string) bool {
		for _, spec := range indexSpecs(t, s, colPayments) {
			if spec["name"] == name {
				return true
			}
		}
		return false
	}
	for i := range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		if hasIndex("hold") || !hasIndex("hold_live") {
			t.Fatalf("payments' indexes after Migrate %d: %v; want hold_live, not hold", i, indexSpecs(t, s, colPayments))
		}
		// The older release starts again and makes its index.
		if i == 0 {
			if _, err := s.col(colPayments).Indexes().CreateOne(ctx, oldHold); err != nil {
				t.Fatal(err)
			}
		}
	}
	var d paymentDoc
	if err := s.col(colPayments).FindOne(ctx, byID("p-old")).Decode(&d); err != nil || d.ReplacedAt != 0 {
		t.Fatalf("older payment after Migrate: %+v, %v", d, err)
	}
	if n, err := s.col(colPayments).CountDocuments(ctx, bson.D{{Key: "_id", Value: "p-old"}, {Key: "replaced_at", Value: int64(0)}}); err != nil || n != 1 {
		t.Errorf("older payment has replaced_at 0: %d, %v", n, err)
	}
	// A second live payment of h1 is refused; once the older one is
	// replaced, the new one goes in.
	_, err = s.col(colPayments).InsertOne(ctx, toPaymentDoc(booking.Payment{ID: "p-new", HoldID: "h1", State: booking.PaymentPending}))
	if !mongo.IsDuplicateKeyError(err) {
		t.Errorf("second live payment of a hold: %v, want a duplicate key", err)
	}
	if _, err := s.col(colPayments).UpdateOne(ctx, byID("p-old"), bson.D{{Key: "$set", Value: bson.D{{Key: "replaced_at", Value: int64(5)}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.col(colPayments).InsertOne(ctx, toPaymentDoc(booking.Payment{ID: "p-new", HoldID: "h1", State: booking.PaymentPending})); err != nil {
		t.Errorf("payment replacing one: %v", err)
	}
	if got, err := s.PendingTickets(ctx, "h1"); err != nil || got != nil {
		t.Errorf("PendingTickets = %v, %v", got, err)
	}
}

// TestRefundQueuePlan asks the server how it runs the site's refund queue
// (RefundQueue's own filter and sort): through the partial refund_due
// index, in its order (no SORT).
func TestRefundQueuePlan(t *testing.T) {
	s := mustOpen(t)
	find := explain(t, s, bson.D{
		{Key: "find", Value: colBookings}, {Key: "filter", Value: refundQueueFilter},
		{Key: "sort", Value: refundQueueSort}, {Key: "limit", Value: 51},
		{Key: "skip", Value: 50}, {Key: "hint", Value: refundDueIndex},
	}, "queryPlanner")
	stages, indexNames := winningPlan(t, find)
	if !indexNames[refundDueIndex] || stages["SORT"] || stages["COLLSCAN"] {
		t.Errorf("refund queue: winning plan has stages %v on indexes %v; want %s and no SORT:\n%s",
			stages, indexNames, refundDueIndex, find)
	}
}
