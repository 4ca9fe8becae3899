package booking_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var osT0 = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

func sec(n float64) time.Time { return osT0.Add(time.Duration(n * float64(time.Second))) }

// steady is 60 a minute from T0: one a second.
var steady = []booking.Segment{{From: osT0, Rate: 60}}

// changed is 60 a minute, paused from 10 s to 20 s, then 120 a minute
// from 30 s.
var changed = []booking.Segment{
	{From: osT0, Rate: 60},
	{From: sec(10), Rate: 60, Paused: true},
	{From: sec(20), Rate: 60},
	{From: sec(30), Rate: 120},
}

// pausedAtT0 was paused before it opened, and resumed at 100 s.
var pausedAtT0 = []booking.Segment{
	{From: osT0, Rate: 60, Paused: true},
	{From: sec(100), Rate: 30},
}

func TestAdmitted(t *testing.T) {
	tests := []struct {
		name string
		segs []booking.Segment
		at   time.Time
		want int
	}{
		{"before T0", steady, sec(-600), 0},
		{"at T0", steady, osT0, 0},
		{"just before the first", steady, sec(0.999), 0},
		{"the first", steady, sec(1), 1},
		{"a minute", steady, sec(60), 60},
		{"rounded down", steady, sec(59.5), 59},
		{"before the pause", changed, sec(10), 10},
		{"during the pause", changed, sec(15), 10},
		{"end of the pause", changed, sec(20), 10},
		{"after resuming", changed, sec(25), 15},
		{"faster", changed, sec(31), 20 + 2},
		{"faster, later", changed, sec(90), 20 + 120},
		{"paused at T0", pausedAtT0, sec(90), 0},
		{"paused at T0, resumed", pausedAtT0, sec(110), 5},
		{"slow fractions add up", []booking.Segment{{From: osT0, Rate: 1}}, sec(119.9), 1},
		{"fractions carry over segments", []booking.Segment{{From: osT0, Rate: 1}, {From: sec(30), Rate: 1}}, sec(60), 1},
		{"no segments", nil, sec(60), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := booking.Admitted(tt.segs, osT0, tt.at); got != tt.want {
				t.Errorf("Admitted at %v = %d, want %d", tt.at.Sub(osT0), got, tt.want)
			}
		})
	}
}

func TestAdmittedAt(t *testing.T) {
	tests := []struct {
		name   string
		segs   []booking.Segment
		p      int
		want   time.Time
		wantOK bool
	}{
		{"the first", steady, 0, sec(1), true},
		{"the 60th", steady, 59, sec(60), true},
		{"before the pause", changed, 9, sec(10), true},
		{"across the pause", changed, 10, sec(21), true},
		{"faster", changed, 21, sec(31), true},
		{"paused at T0, resumed", pausedAtT0, 0, sec(102), true},
		{"paused now", changed[:2], 10, time.Time{}, false},
		{"paused at T0", pausedAtT0[:1], 0, time.Time{}, false},
		{"no segments", nil, 0, time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := booking.AdmittedAt(tt.segs, osT0, tt.p)
			if ok != tt.wantOK || !got.Equal(tt.want) {
				t.Errorf("AdmittedAt(%d) = %v, %v; want %v, %v", tt.p, got.Sub(osT0), ok, tt.want.Sub(osT0), tt.wantOK)
			}
			if ok && booking.Admitted(tt.segs, osT0, got) <= tt.p {
				t.Errorf("Admitted at AdmittedAt(%d) is %d, which does not admit it", tt.p, booking.Admitted(tt.segs, osT0, got))
			}
			if ok && booking.Admitted(tt.segs, osT0, got.Add(-time.Nanosecond)) > tt.p {
				t.Errorf("position %d was admitted before AdmittedAt", tt.p)
			}
		})
	}
}

func TestWaitETA(t *testing.T) {
	tests := []struct {
		name   string
		segs   []booking.Segment
		now    time.Time
		ahead  int
		want   time.Duration
		wantOK bool
	}{
		{"none ahead", steady, sec(5), 0, 0, true},
		{"one a second", steady, sec(5), 30, 30 * time.Second, true},
		{"rounded up", []booking.Segment{{From: osT0, Rate: 7}}, sec(5), 1, 9 * time.Second, true},
		{"faster", changed, sec(40), 10, 5 * time.Second, true},
		{"before T0 adds the wait for T0", steady, sec(-90), 10, 100 * time.Second, true},
		{"paused", changed, sec(15), 10, 0, false},
		{"paused at T0", pausedAtT0, sec(-5), 10, 0, false},
		{"resumed", pausedAtT0, sec(100), 1, 2 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := booking.WaitETA(tt.segs, osT0, tt.now, tt.ahead)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("WaitETA = %v, %v; want %v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestWithSegment(t *testing.T) {
	start := []booking.Segment{{From: osT0, Rate: 60}}
	tests := []struct {
		name   string
		segs   []booking.Segment
		now    time.Time
		rate   int
		paused bool
		want   []booking.Segment
	}{
		{"before T0 replaces the first", start, sec(-60), 60, true, []booking.Segment{{From: osT0, Rate: 60, Paused: true}}},
		{"after T0 appends", start, sec(30), 120, false, []booking.Segment{{From: osT0, Rate: 60}, {From: sec(30), Rate: 120}}},
		{"at the same instant replaces", []booking.Segment{{From: osT0, Rate: 60}, {From: sec(30), Rate: 120}}, sec(30), 10, true,
			[]booking.Segment{{From: osT0, Rate: 60}, {From: sec(30), Rate: 10, Paused: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := booking.WithSegment(tt.segs, osT0, tt.now, tt.rate, tt.paused)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("WithSegment (-want +got):\n%s", diff)
			}
		})
	}
	if len(start) != 1 || start[0].Paused {
		t.Error("WithSegment changed its argument")
	}
}

func TestValidateOnSale(t *testing.T) {
	ok := booking.OnSaleRequest{ID: "x", Key: make([]byte, 32), Name: "Endgame", OpensAt: osT0, Rate: 100, MovieID: "m"}
	got, err := booking.ValidateOnSale(ok)
	if err != nil || !got.ClosesAt.Equal(osT0.Add(2*time.Hour)) || got.PassTTL != 15*time.Minute {
		t.Fatalf("ValidateOnSale = %+v, %v; want the defaults", got, err)
	}
	for name, edit := range map[string]func(*booking.OnSaleRequest){
		"rate 0":          func(r *booking.OnSaleRequest) { r.Rate = 0 },
		"rate below 0":    func(r *booking.OnSaleRequest) { r.Rate = -5 },
		"no name":         func(r *booking.OnSaleRequest) { r.Name = " " },
		"closes before":   func(r *booking.OnSaleRequest) { r.ClosesAt = osT0.Add(-time.Minute) },
		"no shows":        func(r *booking.OnSaleRequest) { r.MovieID = "" },
		"movie and shows": func(r *booking.OnSaleRequest) { r.ShowIDs = []string{"s"} },
		"pass ttl":        func(r *booking.OnSaleRequest) { r.PassTTL = -time.Minute },
		// Unix ns in an int64 end in 2262: these would be stored as
		// other times.
		"opens in 2300":  func(r *booking.OnSaleRequest) { r.OpensAt = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC) },
		"closes in 9999": func(r *booking.OnSaleRequest) { r.ClosesAt = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC) },
		"opens in 1000":  func(r *booking.OnSaleRequest) { r.OpensAt = time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC) },
	} {
		r := ok
		edit(&r)
		if _, err := booking.ValidateOnSale(r); booking.ErrorCode(err) != booking.EINVALID {
			t.Errorf("%s: %v, want EINVALID", name, err)
		}
	}
}

// TestPositionKnown: a place is counted SettlingMargin after T0, or after
// the join when it is later, so that every earlier join is in.
func TestPositionKnown(t *testing.T) {
	o := booking.OnSale{OpensAt: osT0}
	early := booking.QueueEntry{JoinedAt: sec(-60), Before: true}
	late := booking.QueueEntry{JoinedAt: sec(60)}
	tests := []struct {
		name string
		e    booking.QueueEntry
		now  time.Time
		want bool
	}{
		{"early, before T0", early, sec(-1), false},
		{"early, at T0", early, osT0, false},
		{"early, settled", early, osT0.Add(booking.SettlingMargin), true},
		{"late, as it joins", late, sec(60), false},
		{"late, just before settling", late, sec(60).Add(booking.SettlingMargin - 1), false},
		{"late, settled", late, sec(60).Add(booking.SettlingMargin), true},
		{"just after T0, before T0 settled", booking.QueueEntry{JoinedAt: sec(1)}, osT0.Add(booking.SettlingMargin), false},
	}
	for _, tt := range tests {
		if got := o.PositionKnown(tt.e, tt.now); got != tt.want {
			t.Errorf("%s: PositionKnown = %v, want %v", tt.name, got, tt.want)
		}
	}
}
