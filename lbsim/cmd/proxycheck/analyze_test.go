package main

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/perfeval/lbsim/lbsim"
)

// fcfs builds the requests of a run whose backends are exact FCFS servers:
// arrivals at, sizes x, backend pick(i, counts) given each backend's
// requests present at the arrival.
func fcfs(at, x []float64, k int, pick func(i int, counts []int) int) []request {
	reqs := make([]request, len(at))
	free := make([]float64, k)
	for i := range at {
		counts := make([]int, k)
		for _, r := range reqs[:i] {
			if r.Recv <= at[i] && r.End > at[i] { // the earlier requests still there
				counts[r.Backend]++
			}
		}
		b := pick(i, counts)
		start := max(at[i], free[b])
		free[b] = start + x[i]
		reqs[i] = request{Scheduled: at[i], Sent: at[i], Size: x[i], Backend: b, Recv: at[i], Start: start,
			End: free[b], Done: free[b] + 0.25}
	}
	return reqs
}

func poissonMs(n, k int, load, mean float64, seed uint64) (at, x []float64) {
	w := poissonWorkload(n, k, load, sizeLaw{Mean: mean / 1e3, SCV: 1}, seed)
	for i := range w.At {
		at = append(at, float64(w.At[i])/float64(time.Millisecond))
		x = append(x, float64(w.Size[i])/float64(time.Millisecond))
	}
	return at, x
}

// A run that is round robin on exact FCFS servers replays in lbsim's rr
// with the same mean response (the trace fixes everything: ratio 1 up to
// rounding), the same p99 up to lbsim's histogram bins (1/64 octave), and
// its choices are exact round robin.
func TestCompareRoundRobinExact(t *testing.T) {
	const k = 4
	at, x := poissonMs(2001, k, 0.7, 10, 3)
	reqs := fcfs(at, x, k, func(i int, _ []int) int { return i % k })
	s := setup{Proxy: "haproxy", Algo: "roundrobin", Workers: 1, Policy: "rr"}
	c, err := compare(reqs, k, s, 0.05, nil, func(r request) float64 { return r.Recv },
		func(r request) float64 { return r.End - r.Recv })
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.RatioMean()-1) > 1e-9 {
		t.Errorf("mean %v measured, %v replayed: ratio %v, want 1", c.MeasMean, c.Sim.Mean, c.RatioMean())
	}
	if math.Abs(c.RatioP99()-1) > 0.02 {
		t.Errorf("p99 %v measured, %v replayed: ratio %v, want 1 within 2%%", c.MeasP99, c.Sim.P99, c.RatioP99())
	}
	if math.Abs(c.Load-0.7) > 0.07 {
		t.Errorf("trace load %v, want about 0.7", c.Load)
	}
	// The same run replayed as something else does not agree: the
	// comparison can tell policies apart.
	j := setup{Proxy: "haproxy", Algo: "leastconn", Workers: 1, Policy: "jsq"}
	cj, err := compare(reqs, k, j, 0.05, nil, func(r request) float64 { return r.Recv },
		func(r request) float64 { return r.End - r.Recv })
	if err != nil {
		t.Fatal(err)
	}
	if cj.RatioMean() < 1.2 {
		t.Errorf("round robin's run against lbsim's jsq: ratio %v, want well above 1", cj.RatioMean())
	}
	ch := choiceStats(reqs, k)
	if ch.RRDev >= 1 {
		t.Errorf("counts %v: deviation %v from n/K, want < 1", ch.Counts, ch.RRDev)
	}
}

// Least-connections picks on exact FCFS servers: every pick is a least
// loaded backend, and with ties broken toward the lowest index, Lowest is 1;
// random picks are least loaded far less often, and the replay of a
// least-connections run agrees with lbsim's jsq on the mean within a few
// percent (lbsim breaks ties its own way).
func TestChoiceStats(t *testing.T) {
	const k = 4
	at, x := poissonMs(2000, k, 0.7, 10, 5)
	lowest := func(_ int, counts []int) int {
		b := 0
		for j, c := range counts {
			if c < counts[b] {
				b = j
			}
		}
		return b
	}
	reqs := fcfs(at, x, k, lowest)
	ch := choiceStats(reqs, k)
	if ch.Least != 1 {
		t.Errorf("least-loaded picks: share %v sent to a least loaded backend, want 1", ch.Least)
	}
	if ch.Ties == 0 || ch.Lowest != 1 || ch.Chance >= 0.9 {
		t.Errorf("ties to the lowest index: %d ties, lowest %v (want 1), chance %v", ch.Ties, ch.Lowest, ch.Chance)
	}
	c, err := compare(reqs, k, setup{Policy: "jsq"}, 0.05, nil, func(r request) float64 { return r.Recv },
		func(r request) float64 { return r.End - r.Recv })
	if err != nil {
		t.Fatal(err)
	}
	if r := c.RatioMean(); r < 0.95 || r > 1.05 {
		t.Errorf("least-connections run against lbsim's jsq: mean ratio %v, want 1 within 5%%", r)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	random := fcfs(at, x, k, func(int, []int) int { return rng.IntN(k) })
	if cr := choiceStats(random, k); cr.Least > 0.85 || cr.RRDev < 1 {
		t.Errorf("random picks: least %v (want well below 1), rr deviation %v (want >= 1)", cr.Least, cr.RRDev)
	}
}

// The worker split counts the requests by X-Worker, largest first.
func TestWorkerSplit(t *testing.T) {
	reqs := []request{{Worker: "7"}, {Worker: "9"}, {Worker: "7"}, {Worker: "7", Backend: 1}, {Worker: "9"}, {Worker: "3"}}
	for i := range reqs {
		reqs[i].Recv, reqs[i].End = float64(i), float64(i)+0.5
	}
	c := choiceStats(reqs, 2)
	if got := joinInts(c.Workers); got != "3,2,1" {
		t.Errorf("worker split %s, want 3,2,1", got)
	}
	// 7 9 7 7 9 3: one of five requests follows its worker
	if c.SameWorker != 0.2 {
		t.Errorf("same worker %v, want 0.2", c.SameWorker)
	}
}

// join refuses a run where a request failed or was never served.
func TestJoinErrors(t *testing.T) {
	sends := []sent{{At: 0, Done: time.Millisecond}, {At: time.Millisecond, Err: "502 Bad Gateway"}}
	recs := []served{{ID: 0}, {ID: 1}}
	if _, err := join(sends, recs, 0); err == nil || !strings.Contains(err.Error(), "502") {
		t.Errorf("a failed request: error %v, want one naming 502", err)
	}
	if _, err := join(sends[:1], nil, 0); err == nil || !strings.Contains(err.Error(), "no backend served it") {
		t.Errorf("an unserved request: error %v", err)
	}
	if _, err := join(sends[:1], []served{{ID: 0}, {ID: 0}}, 0); err == nil {
		t.Error("a request served twice: no error")
	}
}

func TestQuantile(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(100 - i)
	}
	if q := quantile(xs, 0.99); q != 99 {
		t.Errorf("p99 of 1..100 = %v, want 99", q)
	}
	if q := quantile(xs, 0.5); q != 50 {
		t.Errorf("p50 of 1..100 = %v, want 50", q)
	}
}

// The size laws have the mean asked for (and H2 its SCV), within the
// sampling error of 200,000 draws.
func TestSizeLaw(t *testing.T) {
	for _, l := range []sizeLaw{{Mean: 0.01, SCV: 1}, {Mean: 0.02, SCV: 4}} {
		rng := rand.New(rand.NewPCG(7, 8))
		const n = 200000
		var s, s2 float64
		for range n {
			x := l.draw(rng)
			s += x
			s2 += x * x
		}
		m := s / n
		scv := (s2/n - m*m) / (m * m)
		if math.Abs(m/l.Mean-1) > 0.02 || math.Abs(scv/l.SCV-1) > 0.1 {
			t.Errorf("%v: mean %v, scv %v", l, m, scv)
		}
	}
}

// nginx's workers without a zone replay as lbsim's dispatchers in the
// workers' shares, counting their own jobs where the policy reads counts;
// with a zone (or one worker) as one dispatcher on live counts.
func TestReplaySeparateWorkers(t *testing.T) {
	at, x := poissonMs(400, 4, 0.7, 10, 9)
	tr := lbsim.Trace{Times: at, Sizes: x}
	for _, c := range []struct {
		s    setup
		want string
	}{
		{setup{Proxy: "nginx", Algo: "least_conn", Workers: 4, Policy: "jsq"}, "-policy jsq -warmup 20 -dispatchers 3 -dispatcher-weights 5,3,2 -view own"},
		{setup{Proxy: "nginx", Algo: "round_robin", Workers: 4, Policy: "rr"}, "-policy rr -warmup 20 -dispatchers 3 -dispatcher-weights 5,3,2"},
		{setup{Proxy: "nginx", Algo: "least_conn", Workers: 4, Zone: true, Policy: "jsq"}, "-policy jsq -warmup 20"},
		{setup{Proxy: "haproxy", Algo: "leastconn", Workers: 1, Policy: "jsq"}, "-policy jsq -warmup 20"},
	} {
		r, err := replay(tr, 4, c.s, 20, []int{5, 3, 2})
		if err != nil {
			t.Errorf("%s: %v", c.s.Name(), err)
			continue
		}
		if want := "-servers 4 " + c.want; r.Spec != want {
			t.Errorf("%s: lbsim %s, want %s", c.s.Name(), r.Spec, want)
		}
		if !(r.Mean > 0) {
			t.Errorf("%s: mean %v", c.s.Name(), r.Mean)
		}
	}
}

// Every size is positive after rounding to the microsecond (lbsim refuses a
// size 0), and the arrivals increase.
func TestWorkloadPositive(t *testing.T) {
	w := poissonWorkload(20000, 8, 0.9, sizeLaw{Mean: 0.001, SCV: 8}, 1)
	for i := range w.Size {
		if w.Size[i] < time.Microsecond {
			t.Fatalf("size %d is %v", i, w.Size[i])
		}
		if i > 0 && w.At[i] < w.At[i-1] {
			t.Fatalf("arrival %d at %v before %v", i, w.At[i], w.At[i-1])
		}
	}
}
