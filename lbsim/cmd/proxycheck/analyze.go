package main

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/perfeval/lbsim/lbsim"
)

// request is one request of a run, joined from the client's and the
// backend's records; times in milliseconds since the run's start.
type request struct {
	Scheduled float64 // the scheduled send time: the arrival
	Sent      float64 // the actual send time (the client's goroutine's clock before it connects)
	Done      float64 // the reply read
	Size      float64
	Backend   int
	Recv      float64 // reached the backend
	Start     float64 // service start (deadline-based)
	End       float64 // service end deadline
	Worker    string
}

// Idle tells whether the request found its backend idle (its service
// started as it arrived).
func (r request) Idle() bool { return r.Start == r.Recv }

// join matches the client's records with the backends' by id. offset is the
// backends' clock origin minus the run's start.
func join(sends []sent, recs []served, offset time.Duration) ([]request, error) {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	byID := make(map[int]served, len(recs))
	for _, r := range recs {
		if _, dup := byID[r.ID]; dup {
			return nil, fmt.Errorf("request %d served twice", r.ID)
		}
		byID[r.ID] = r
	}
	out := make([]request, len(sends))
	nerr := 0
	var firstErr string
	for i, s := range sends {
		r, ok := byID[i]
		if s.Err != "" || !ok {
			if nerr == 0 {
				firstErr = s.Err
				if firstErr == "" {
					firstErr = "no backend served it"
				}
			}
			nerr++
			continue
		}
		out[i] = request{Scheduled: ms(s.At), Sent: ms(s.Sent), Done: ms(s.Done), Size: ms(s.Size), Backend: r.Backend,
			Recv: ms(r.Recv + offset), Start: ms(r.Start + offset), End: ms(r.End + offset), Worker: r.Worker}
	}
	if nerr > 0 {
		return nil, fmt.Errorf("%d of %d requests failed (the first: %s)", nerr, len(sends), firstErr)
	}
	return out, nil
}

// overhead is the fixed cost outside the model, in ms: the mean of the
// client's response (reply read minus scheduled send) minus the size over
// the requests that found their backend idle (the client's send lag, the
// proxy's two hops, loopback, the backend's late wake-up), with their count.
func overhead(reqs []request) (mean float64, n int) {
	sum := 0.0
	for _, r := range reqs {
		if r.Idle() {
			sum += r.Done - r.Scheduled - r.Size
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}

// quantile is the p-quantile of xs by nearest rank (the smallest x with at
// least p of the values at or below it).
func quantile(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(i, 0)]
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// comparison is one reading of a run beside lbsim's replay of the same
// arrivals and sizes: the measured mean and p99 response (ms) and lbsim's.
type comparison struct {
	MeasMean, MeasP99 float64
	Sim               replayed
	Load              float64 // the trace's own load
}

func (c comparison) RatioMean() float64 { return c.MeasMean / c.Sim.Mean }
func (c comparison) RatioP99() float64  { return c.MeasP99 / c.Sim.P99 }

// compare reads the run with the given arrival and response of each
// request: the trace is the arrivals (sorted) and sizes, the first warm
// share of them lbsim's warm-up and left out of the measured side too.
func compare(reqs []request, k int, s setup, warmShare float64, workers []int,
	arrival, response func(request) float64) (comparison, error) {
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return arrival(reqs[order[a]]) < arrival(reqs[order[b]]) })
	tr := lbsim.Trace{Times: make([]float64, len(reqs)), Sizes: make([]float64, len(reqs))}
	t0 := arrival(reqs[order[0]])
	for j, i := range order {
		tr.Times[j], tr.Sizes[j] = arrival(reqs[i])-t0, reqs[i].Size
	}
	if s.Separate() { // each request through the worker that took it (nginx's $pid)
		tr.Dispatchers = make([]int, len(reqs))
		index := map[string]int{}
		for j, i := range order {
			w := reqs[i].Worker
			if _, ok := index[w]; !ok {
				index[w] = len(index)
			}
			tr.Dispatchers[j] = index[w]
		}
		if _, ok := index[""]; ok || len(index) < 2 {
			tr.Dispatchers = nil // not recorded: drawn in the workers' shares
		}
	}
	warm := int(warmShare * float64(len(reqs)))
	resp := make([]float64, 0, len(reqs)-warm)
	for _, i := range order[warm:] {
		resp = append(resp, response(reqs[i]))
	}
	sim, err := replay(tr, k, s, warm, workers)
	if err != nil {
		return comparison{}, err
	}
	return comparison{MeasMean: mean(resp), MeasP99: quantile(resp, 0.99), Sim: sim, Load: tr.Load(float64(k))}, nil
}

// replayed is lbsim's response on the trace: mean and p99 (ms).
type replayed struct {
	Mean, P99 float64
	Spec      string // what lbsim ran, as its flags
}

// replay runs the trace through lbsim with s's policy and view, its first
// warm jobs a warm-up. When s's workers keep separate state (nginx without a
// zone), they are lbsim's dispatchers, each request routed through the
// worker that took it (the trace's Dispatchers; else drawn in the shares of
// the requests each handled, workers), each counting its own jobs (-view
// own) if the policy reads counts at all (not rr: each its own rotation).
func replay(tr lbsim.Trace, k int, s setup, warm int, workers []int) (replayed, error) {
	pol, err := lbsim.ParsePolicy(s.Policy)
	if err != nil {
		return replayed{}, err
	}
	cfg := lbsim.Config{Servers: k, Trace: &tr, Policy: pol, Warmup: int64(warm), Reps: 1, Seed: 1, Workers: 1}
	spec := fmt.Sprintf("-servers %d -policy %s -warmup %d", k, s.Policy, warm)
	if s.Separate() && len(workers) > 0 {
		cfg.Dispatchers = len(workers)
		spec += fmt.Sprintf(" -dispatchers %d", len(workers))
		if tr.Dispatchers != nil {
			spec += " (each request through its recorded worker)"
		} else if len(workers) > 1 {
			cfg.DispatcherWeights = make([]float64, len(workers))
			for i, c := range workers {
				cfg.DispatcherWeights[i] = float64(c)
			}
			spec += " -dispatcher-weights " + joinInts(workers)
		}
		if lbsim.Describe(pol, cfg).Reads&lbsim.Count != 0 {
			cfg.View = lbsim.OwnView
			spec += " -view own"
		}
	}
	res, err := lbsim.Run(cfg)
	if err != nil {
		return replayed{}, fmt.Errorf("lbsim %s: %w", spec, err)
	}
	p99 := math.NaN()
	for i, p := range lbsim.Percentiles() {
		if p.Name == "p99" {
			p99 = res.ResponseQuantiles[i].Mean
		}
	}
	return replayed{Mean: res.Response.Mean, P99: p99, Spec: spec}, nil
}

func joinInts(xs []int) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(x)
	}
	return s
}

// choices are the statistics of the backends chosen in a run.
type choices struct {
	Counts []int   // requests per backend
	RRDev  float64 // max_k |count_k - n/K|: round robin is exact when < 1

	// Least is the share of requests sent to a backend with the fewest
	// requests at that moment (reconstructed from the records: a request
	// counts at its backend from its arrival there to its service end).
	Least float64
	// Among requests with a tie for the fewest (Ties of them) that went to
	// one of the tied: the share that went to the tied backend whose count
	// changed longest ago (HAProxy's leastconn: Oldest), to the lowest index
	// (Lowest), to the one nginx's least_conn picks among the tied by smooth
	// weighted round robin (SWRR: the tied peers' current weights each grow
	// by 1, the largest wins, the first on equal, the winner gives back the
	// number tied; replayed along the reconstructed ties, with the backend
	// actually chosen giving back), and the share expected of a uniform pick
	// among the tied (Chance).
	Ties                         int
	Oldest, Lowest, SWRR, Chance float64

	Workers []int // requests per proxy worker (nginx's $pid), largest first
	// SameWorker is the share of requests (after the first) that went
	// through the same worker as the request scheduled just before them:
	// 1/M for workers drawn independently in even shares, higher when the
	// kernel hands a run of connections to the worker that is awake.
	SameWorker float64
}

// choiceStats reconstructs each backend's count at every arrival.
func choiceStats(reqs []request, k int) choices {
	c := choices{Counts: make([]int, k)}
	type event struct {
		t   float64
		arr bool
		i   int
	}
	evs := make([]event, 0, 2*len(reqs))
	for i, r := range reqs {
		c.Counts[r.Backend]++
		evs = append(evs, event{r.Recv, true, i})
		if r.End > r.Recv { // a job of size 0 is never present
			evs = append(evs, event{r.End, false, i})
		}
	}
	// departures first at equal times: a reply leaves before the next pick
	sort.SliceStable(evs, func(a, b int) bool {
		if evs[a].t != evs[b].t {
			return evs[a].t < evs[b].t
		}
		return !evs[a].arr && evs[b].arr
	})
	n := float64(len(reqs))
	for _, x := range c.Counts {
		c.RRDev = max(c.RRDev, math.Abs(float64(x)-n/float64(k)))
	}
	count := make([]int, k)
	changed := make([]float64, k)
	least, oldest, lowest, swrr := 0, 0, 0, 0
	chance := 0.0
	credit := make([]float64, k) // nginx's current_weight of each backend
	for _, e := range evs {
		b := reqs[e.i].Backend
		if !e.arr {
			count[b]--
			changed[b] = e.t
			continue
		}
		low := slices.Min(count)
		if count[b] == low {
			least++
			var tied []int
			for j, x := range count {
				if x == low {
					tied = append(tied, j)
				}
			}
			if len(tied) > 1 {
				c.Ties++
				chance += 1 / float64(len(tied))
				old := tied[0]
				for _, j := range tied {
					if changed[j] < changed[old] {
						old = j
					}
				}
				if b == old {
					oldest++
				}
				if b == tied[0] {
					lowest++
				}
				// nginx's least_conn among ties: each tied peer's
				// current_weight grows by its weight (1), the largest wins
				// (the first on equal), the winner gives back the total.
				best := tied[0]
				for _, j := range tied {
					credit[j]++
					if credit[j] > credit[best] {
						best = j
					}
				}
				if b == best {
					swrr++
				}
				credit[b] -= float64(len(tied))
			}
		}
		if reqs[e.i].End > reqs[e.i].Recv {
			count[b]++
		}
		changed[b] = e.t
	}
	c.Least = float64(least) / n
	if c.Ties > 0 {
		t := float64(c.Ties)
		c.Oldest, c.Lowest, c.SWRR, c.Chance = float64(oldest)/t, float64(lowest)/t, float64(swrr)/t, chance/t
	}
	byWorker := map[string]int{}
	for _, r := range reqs {
		if r.Worker != "" {
			byWorker[r.Worker]++
		}
	}
	for _, x := range byWorker {
		c.Workers = append(c.Workers, x)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(c.Workers)))
	if len(c.Workers) > 0 && len(reqs) > 1 {
		same := 0
		for i := 1; i < len(reqs); i++ {
			if reqs[i].Worker == reqs[i-1].Worker {
				same++
			}
		}
		c.SameWorker = float64(same) / float64(len(reqs)-1)
	}
	return c
}
