package main

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// cpuRecord is the CPU the processes and this tool used during a crowd
// run, and one-second windows of the processes' CPU beside the requests of
// each kind answered in them, from which share estimates what a request
// of each kind costs.
type cpuRecord struct {
	self0, self1     time.Duration
	server0, server1 []time.Duration
	wall0, wall1     time.Time

	mu      sync.Mutex
	windows []cpuWindow
}

// cpuWindow is one sampling window: the processes' CPU in it and the
// requests of each kind completed in it.
type cpuWindow struct {
	cpu time.Duration
	n   [kinds]float64
}

func (r *cpuRecord) start(ss *servers) {
	r.self0, r.server0, r.wall0 = selfCPU(), ss.cpu(), time.Now()
}

func (r *cpuRecord) stop(ss *servers) {
	r.self1, r.server1, r.wall1 = selfCPU(), ss.cpu(), time.Now()
}

// sample records a window every interval until stopped.
func (r *cpuRecord) sample(ss *servers, counts *[kinds]atomic.Int64, every time.Duration) (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		lastCPU := sum(ss.cpu())
		var last [kinds]int64
		for i := range counts {
			last[i] = counts[i].Load()
		}
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			cpu := sum(ss.cpu())
			w := cpuWindow{cpu: cpu - lastCPU}
			for i := range counts {
				n := counts[i].Load()
				w.n[i] = float64(n - last[i])
				last[i] = n
			}
			lastCPU = cpu
			r.mu.Lock()
			r.windows = append(r.windows, w)
			r.mu.Unlock()
		}
	}()
	return func() { close(quit); wg.Wait() }
}

func sum(ds []time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t
}

// server is each process's CPU over the run.
func (r *cpuRecord) server() []time.Duration {
	out := make([]time.Duration, len(r.server1))
	for i := range r.server1 {
		if i < len(r.server0) {
			out[i] = r.server1[i] - r.server0[i]
		}
	}
	return out
}

// share estimates the processes' CPU per request of each kind, and their
// CPU a second besides requests (garbage collection, checkpoints, the
// sandbox), by least squares over the windows: window CPU = idle + Σ
// cost[kind] × requests of that kind. seen says which kinds some window
// had; nothing is told (ok false) with fewer than four windows an unknown.
// It is an estimate: kinds that always come together (a hold and its
// checkout) share their CPU between them unreliably, and a figure may even
// come out below 0.
func (r *cpuRecord) share() (cost [kinds]time.Duration, seen [kinds]bool, idle time.Duration, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var cols []int // the kinds seen
	for k := range kinds {
		for _, w := range r.windows {
			if w.n[k] > 0 {
				cols = append(cols, k)
				break
			}
		}
	}
	m := len(cols) + 1        // and the idle term
	if len(r.windows) < 4*m { // fewer tell nothing but noise
		return cost, seen, 0, false
	}
	row := func(w cpuWindow) []float64 {
		x := make([]float64, m)
		for i, k := range cols {
			x[i] = w.n[k]
		}
		x[m-1] = 1
		return x
	}
	ata := make([][]float64, m)
	for i := range ata {
		ata[i] = make([]float64, m+1)
	}
	for _, w := range r.windows {
		x, y := row(w), w.cpu.Seconds()
		for i := range m {
			for k := range m {
				ata[i][k] += x[i] * x[k]
			}
			ata[i][m] += x[i] * y
		}
	}
	sol, ok := solve(ata)
	if !ok {
		return cost, seen, 0, false
	}
	for i, k := range cols {
		cost[k], seen[k] = time.Duration(sol[i]*float64(time.Second)), true
	}
	return cost, seen, time.Duration(sol[m-1] * float64(time.Second)), true
}

// solve solves the augmented m×(m+1) system a by Gaussian elimination with
// partial pivoting; ok is false when it is singular.
func solve(a [][]float64) ([]float64, bool) {
	m := len(a)
	for c := range m {
		p := c
		for r := c + 1; r < m; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		for r := range m {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k <= m; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, m)
	for i := range m {
		x[i] = a[i][m] / a[i][i]
	}
	return x, true
}
