package lbsim

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// The estimator against a hand computation, tau = 2: a first response is a
// peak; a smaller one two time units later moves the cost by 1 - e^-1 of
// the way to it; an observation of 0 decays it; one dated before the last
// stamp is taken at the stamp (Finagle's monotonicity); after tau ln 2 the
// weight is 1/2. tower's start: default_rtt decays from time 0.
func TestPeakEWMAByHand(t *testing.T) {
	e := peakEWMA{tau: 2}
	e1 := math.Exp(-1)
	for i, step := range []struct{ x, at, want float64 }{
		{0, 0, 0},
		{3, 1, 3},                          // peak: 3 > 0
		{1, 3, 3*e1 + 1*(1-e1)},            // w = e^-(2/2)
		{0, 5, (3*e1 + (1 - e1)) * e1},     // decays: w = e^-1 again
		{5, 4, 5},                          // a peak, dated before stamp 5: at 5
		{2, 5 + 2*math.Ln2, 5*0.5 + 2*0.5}, // w = e^-ln 2 = 1/2
		{3.5, 9, 3.5},                      // equal to the cost: not a peak, w irrelevant
	} {
		if got := e.observe(step.x, step.at); math.Abs(got-step.want) > 1e-15*step.want {
			t.Fatalf("step %d: observe(%v, %v) = %.17g, want %.17g", i, step.x, step.at, got, step.want)
		}
	}
	if e.stamp != 9 {
		t.Errorf("stamp %v, want 9", e.stamp)
	}
	tower := peakEWMA{tau: 10, cost: 0.03}
	if got := tower.observe(0, 10); math.Abs(got-0.03*e1) > 1e-17 {
		t.Errorf("tower's default_rtt 0.03 after one tau: %v, want %v", got, 0.03*e1)
	}
}

// finagleMetric is Finagle's PeakEwma.Metric with its util.Ema, transcribed
// (finagle-core .../loadbalancer/PeakEwma.scala, .../util/Ema.scala), the
// simulation's clock for nanoTime; tower's RttEstimate when tower is set
// (tower/src/load/peak_ewma.rs: starts at default_rtt, no Penalty).
type finagleMetric struct {
	tau, stamp float64
	pending    int
	emaTime    float64
	emaSet     bool // Ema's time != Long.MinValue
	ema        float64
	tower      bool
}

const finaglePenalty = float64(9223372036854775807 >> 16) // Long.MaxValue >> 16

func (m *finagleMetric) emaUpdate(stamp, x float64) {
	if !m.emaSet {
		m.emaTime, m.emaSet, m.ema = stamp, true, x
		return
	}
	w := math.Exp(-(stamp - m.emaTime) / m.tau)
	m.emaTime, m.ema = stamp, x*(1-w)+m.ema*w
}

func (m *finagleMetric) observe(now, rtt float64) {
	if m.tower { // RttEstimate::update
		if m.ema < rtt {
			m.ema = rtt
		} else {
			d := math.Exp(-(now - m.emaTime) / m.tau)
			m.ema = m.ema*d + rtt*(1-d)
		}
		m.emaTime = now
		return
	}
	if now-m.stamp > 0 {
		m.stamp = now
	}
	if rtt > m.ema {
		m.emaSet, m.ema = false, 0 // cost.reset()
	}
	m.emaUpdate(m.stamp, rtt)
}

func (m *finagleMetric) load(now float64) float64 {
	m.observe(now, 0)
	if !m.tower && m.ema == 0 && m.pending != 0 {
		return finaglePenalty + float64(m.pending)
	}
	return m.ema * float64(m.pending+1)
}

// finagleRun replays a trace through Finagle's P2CPick.pick over
// finagleMetrics (FCFS servers of speeds mu, responses at departures, in
// time order, before each arrival) with the draws of lbsim's dispatch
// stream: a = nextInt(K), b = nextInt(K-1), b++ if b >= a; a on a tie; a
// response reaches the balancer delay after its departure. It
// returns the mean response time, the picks, and how many picks went to the
// server with more pending jobs, and how many saw a Penalty.
func finagleRun(tr Trace, mu []float64, tau, start, delay float64, seed uint64) (mean float64, picks []int, against, penalties int) {
	k := len(mu)
	r := newStream(seed, 0, streamDispatch)
	nodes := make([]finagleMetric, k)
	for i := range nodes {
		nodes[i] = finagleMetric{tau: tau, ema: start, tower: start > 0}
	}
	free := make([]float64, k)
	type end struct {
		at, rtt float64
		k       int
	}
	var ends []end
	for j, t := range tr.Times {
		for len(ends) > 0 { // the earliest response due by t
			first := 0
			for i := range ends {
				if ends[i].at < ends[first].at {
					first = i
				}
			}
			if ends[first].at > t {
				break
			}
			e := ends[first]
			ends = append(ends[:first], ends[first+1:]...)
			nodes[e.k].pending--
			nodes[e.k].observe(e.at, e.rtt)
		}
		a := r.IntN(k)
		b := r.IntN(k - 1)
		if b >= a {
			b++
		}
		la, lb := nodes[a].load(t), nodes[b].load(t)
		pick, other := a, b
		if la > lb {
			pick, other = b, a
		}
		if nodes[pick].pending > nodes[other].pending {
			against++
		}
		if max(la, lb) >= finaglePenalty {
			penalties++
		}
		nodes[pick].pending++
		free[pick] = max(free[pick], t) + tr.Sizes[j]/mu[pick]
		ends = append(ends, end{free[pick] + delay, free[pick] + delay - t, pick}) // seen, and measured, delay late
		mean += (free[pick] - t) / float64(tr.Len())
		picks = append(picks, pick)
	}
	return mean, picks, against, penalties
}

// A deterministic scenario at K = 2 (speeds 1 and 1/4) and a random trace
// at K = 3: lbsim's ewma gives, job for job, the mean response of the
// transcription of Finagle's algorithm (tower's with start > 0), whose
// picks go against the job counts and through the Penalty; with a delay,
// a response seen, and measured, D late.
func TestEWMAFollowsFinagle(t *testing.T) {
	hand := Trace{Times: []float64{0, 0.5, 1, 1.2, 3, 3.1, 3.3, 6, 6.2, 6.5, 9, 9.4, 12, 12.1},
		Sizes: []float64{1, 0.3, 2, 0.2, 0.5, 0.4, 0.1, 3, 0.2, 0.2, 0.6, 0.5, 0.4, 0.3}}
	src := rand.New(rand.NewPCG(7, 8))
	var long Trace
	for i, t := 0, 0.0; i < 3000; i++ {
		t += src.ExpFloat64() / 2.2
		long.Times, long.Sizes = append(long.Times, t), append(long.Sizes, src.ExpFloat64())
	}
	for _, tc := range []struct {
		tr          Trace
		mu          []float64
		tau, start  float64
		delay       float64
		seeds       uint64
		wantAgainst bool
	}{
		{hand, []float64{1, 0.25}, 4, 0, 0, 20, true},
		{hand, []float64{1, 0.25}, 4, 0.5, 0, 20, true},
		{long, []float64{2, 1, 0.5}, 5, 0, 0, 3, true},
		{long, []float64{2, 1, 0.5}, 5, 0.2, 0, 3, true},
		{long, []float64{2, 1, 0.5}, 5, 0, 0.3, 3, true},
	} {
		against, penalties := 0, 0
		for seed := range tc.seeds {
			want, picks, a, p := finagleRun(tc.tr, tc.mu, tc.tau, tc.start, tc.delay, seed)
			against, penalties = against+a, penalties+p
			tr := tc.tr
			c := Config{Servers: len(tc.mu), Speeds: tc.mu, Trace: &tr, Policy: EWMA{D: 2, Decay: tc.tau, Start: tc.start}, Delay: tc.delay, Seed: seed, Batches: 2}
			r, err := Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.Response.Mean-want) > 1e-12*want {
				t.Fatalf("%s seed %d: mean response %.15g, Finagle's transcription %.15g (picks %v)", c.Policy, seed, r.Response.Mean, want, picks[:min(20, len(picks))])
			}
		}
		t.Logf("%s, K=%d, delay %v: %d picks against the counts, %d through the Penalty", EWMA{D: 2, Decay: tc.tau, Start: tc.start}, len(tc.mu), tc.delay, against, penalties)
		if tc.wantAgainst && against == 0 || tc.start == 0 && penalties == 0 {
			t.Errorf("%s: %d picks against the counts, %d through the Penalty: the scenario does not tell EWMA from JSQ", EWMA{D: 2, Decay: tc.tau, Start: tc.start}, against, penalties)
		}
	}
}

// As decay -> 0 every cost is 0 at the next pick: Finagle's load is
// Penalty + pending for a busy server, 0 for an idle one, and EWMA-2 is
// JSQ-2 on the dispatcher's own counts with the same draws and ties: the
// same numbers, bit for bit, at M = 1 and M = 2; at M = 1, K = 3, its mean
// wait agrees with JSQ-2's exact chain. With a delay D both see a departure D
// late; under PS and SRPT the servers tell it of its jobs' departures.
func TestEWMADecayZeroIsJSQ2(t *testing.T) {
	tiny := EWMA{D: 2, Decay: 1e-300}
	for _, tc := range []struct {
		m     int
		delay float64
		disc  Discipline
	}{{1, 0, FCFS}, {2, 0, FCFS}, {1, 0.3, FCFS}, {2, 0.3, FCFS}, {1, 0, PS}, {2, 0.3, PS}, {2, 0, SRPT}} {
		m := tc.m
		c := Config{Servers: 3, Load: 0.7, Sizes: Exponential{M: 1}, Policy: tiny, View: OwnView, Dispatchers: m, Delay: tc.delay, Discipline: tc.disc, Jobs: 1_000_000, Seed: 17}
		if tc.disc != FCFS { // the servers tell it of its jobs' departures (completionWatcher)
			c.Jobs = 100_000
		}
		ewma, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		c.Policy = JSQ{D: 2}
		jsq, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		if !sameNumbers(ewma, jsq) {
			t.Errorf("M=%d, delay %v, %v: %s %v, %s %v: not the same run", m, tc.delay, tc.disc, tiny, ewma.Wait, c.Policy, jsq.Wait)
		}
		if m > 1 || tc.delay > 0 || tc.disc != FCFS {
			continue
		}
		exact, ok := Exact(c)
		if !ok {
			t.Fatalf("%s: no exact chain", c)
		}
		t.Logf("K=3, load 0.7: %s mean wait %v, JSQ-2's exact chain %.5f", tiny, ewma.Wait, exact.Wait)
		if math.Abs(ewma.Wait.Mean-exact.Wait) > 1.5*ewma.Wait.CI95 {
			t.Errorf("%s: mean wait %v, JSQ-2's exact chain %.5f", tiny, ewma.Wait, exact.Wait)
		}
	}
}

// What it is for: two generations of backends (speeds 2, 2, 1/2, 1/2), H2
// sizes of SCV 10 at load 0.7. JSQ-2 on its own counts takes a slow server
// whenever it has no more jobs; EWMA-2 sees the slow servers' responses.
// Its mean response is lower, paired replication by replication.
func TestEWMABeatsJSQ2OnTwoGenerations(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	c := Config{Servers: 4, Speeds: []float64{2, 2, 0.5, 0.5}, Load: 0.7, Sizes: h2, View: OwnView, Jobs: 200_000, Reps: 8, Seed: 5}
	c.Policy = EWMA{D: 2, Decay: 100}
	ewma, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Policy = JSQ{D: 2}
	jsq, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	a, b := ewma.Units["mean_response"], jsq.Units["mean_response"]
	var s, s2 float64
	for i := range a {
		s += a[i] - b[i]
		s2 += (a[i] - b[i]) * (a[i] - b[i])
	}
	n := float64(len(a))
	mean := s / n
	ci := 2.365 * math.Sqrt((s2-n*mean*mean)/(n-1)/n) // t_{7, 0.975}
	t.Logf("mean response: EWMA-2 (decay 100) %v, JSQ-2 own counts %v; paired difference %.3f ± %.3f", ewma.Response, jsq.Response, mean, ci)
	if len(a) != 8 || !(mean+ci < 0) {
		t.Errorf("EWMA-2 %v not below JSQ-2 %v: paired difference %.3f ± %.3f over %d replications", ewma.Response, jsq.Response, mean, ci, len(a))
	}
}

// Its facts and its refusals, each naming the value and the fix.
func TestEWMADescribeAndRefuse(t *testing.T) {
	p, err := ParsePolicy("ewma:decay=10")
	if err != nil || p != (EWMA{D: 2, Decay: 10}) {
		t.Fatalf("ewma:decay=10: %#v, %v", p, err)
	}
	c := Config{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Policy: EWMA{D: 3, Decay: 10, Start: 0.5}, Jobs: 1000}
	if d := Describe(c.Policy, c); d.Label != "EWMA-3" || d.Reads != Count || d.D != 3 || d.Probes != 0 || !d.history || d.sampled != 3 {
		t.Errorf("%s: %+v", c.Policy, d)
	}
	if s := c.Policy.String(); s != "ewma:d=3,decay=10,start=0.5" {
		t.Errorf("spec %q", s)
	}
	if r, err := Run(c); err != nil || r.MessagesPerJob != 0 {
		t.Errorf("%s: %v messages a job, %v: want none (it asks no server)", c.Policy, r.MessagesPerJob, err)
	}
	for _, tc := range []struct {
		spec string
		edit func(*Config)
		want string
	}{
		{"ewma", nil, "missing parameter decay"},
		{"ewma:decay=0", nil, "decay=0 is invalid: need a time constant > 0"},
		{"ewma:decay=1,start=-1", nil, "start=-1 is invalid"},
		{"ewma:d=0,decay=1", nil, "d=0 is invalid"},
		{"ewma:d=5,decay=1", nil, "need 1 <= d <= K = 4"},
		{"ewma:decay=1", func(c *Config) { c.Refresh = 1 }, "refresh T=1 is invalid"},
	} {
		p, err := ParsePolicy(tc.spec)
		if err == nil {
			c := Config{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Policy: p, Jobs: 1000}
			if tc.edit != nil {
				tc.edit(&c)
			}
			err = c.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.spec, err, tc.want)
		}
	}
}

// Each dispatcher learns of its own jobs only, whatever the view: with
// M = 3 on live state (every dispatcher told of every send) the run is the
// own view's, number for number.
func TestEWMAOwnJobsUnderEitherView(t *testing.T) {
	c := Config{Servers: 4, Speeds: []float64{2, 2, 0.5, 0.5}, Load: 0.7, Sizes: Exponential{M: 1}, Policy: EWMA{D: 2, Decay: 10}, Dispatchers: 3, Jobs: 100_000, Seed: 9}
	live, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	c.View = OwnView
	own, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if !sameNumbers(live, own) {
		t.Errorf("%s M=3: live view %v, own view %v", c.Policy, live.Response, own.Response)
	}
}
