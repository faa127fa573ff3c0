package lbsim

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A trace worked by hand, one PS server. Job (arrival, size): 0 (0, 4),
// 1 (1, 2), 2 (2, 1), 3 (8, 2), 4 (8, 2).
//
//	t=0   job 0 alone, at rate 1
//	t=1   job 0 has 3 left; job 1 arrives: each at rate 1/2
//	t=2   jobs 0 and 1 have 2.5 and 1.5 left; job 2 arrives: each at rate 1/3
//	t=5   job 2 leaves (response 3); jobs 0 and 1 have 1.5 and 0.5 left
//	t=6   job 1 leaves (5); job 0 has 1 left, alone
//	t=7   job 0 leaves (7); the server is idle
//	t=8   jobs 3 and 4 arrive together: each at rate 1/2
//	t=12  both leave (4 each)
//
// At speed 2 (the trace at the same load: its times halved) every response
// is half as long.
func TestPSTraceByHand(t *testing.T) {
	tr := &Trace{Times: []float64{0, 1, 2, 8, 8}, Sizes: []float64{4, 2, 1, 2, 2}}
	want := []float64{7, 5, 3, 4, 4}
	for _, mu := range []float64{1, 2} {
		cfg := Config{Servers: 1, Speeds: []float64{mu}, Load: tr.Load(1), AllowOverload: true, Policy: Random{}, Trace: tr,
			Discipline: PS, Batches: len(want)}
		r := run(t, cfg)
		resp, wait := r.Units["mean_response"], r.Units["mean_wait"]
		for i, w := range want {
			w /= mu
			if resp[i] != w || wait[i] != w-tr.Sizes[i]/mu {
				t.Errorf("speed %g: job %d: response %.15g, wait %.15g; by hand %g, %g", mu, i, resp[i], wait[i], w, w-tr.Sizes[i]/mu)
			}
		}
	}
}

// jobHeap pops its jobs in (key, arrival) order, whatever the order of the
// pushes and pops between them: against a sort of the jobs, on keys with
// many ties.
func TestJobHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	held := backlog{limit: math.MaxInt64}
	defer held.done()
	var h jobHeap
	var in []heapJob // what the heap holds
	seq := int64(0)
	for step := range 20_000 {
		if len(in) == 0 || r.IntN(3) > 0 { // grows on the whole
			j := heapJob{key: float64(r.IntN(50)), jobRecord: jobRecord{seq: seq}}
			seq++
			h.reserve(&held)
			h.push(j)
			in = append(in, j)
			continue
		}
		least := slices.MinFunc(in, func(a, b heapJob) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.seq, b.seq)) })
		if got := h.pop(); got != least {
			t.Fatalf("step %d: popped (key %g, seq %d), want (key %g, seq %d)", step, got.key, got.seq, least.key, least.seq)
		}
		in = slices.DeleteFunc(in, func(j heapJob) bool { return j.seq == least.seq })
	}
	if held.bytes == 0 {
		t.Error("the heap grew without charging its backlog")
	}
}

// A discipline added to the table, of an existing rule under another name,
// is parsed, preemptive, and run as the discipline whose rule it shares: the
// same numbers to the last bit, under one dispatcher or several, the live
// view or the own.
func TestDisciplineOfAnExistingRule(t *testing.T) {
	saved := disciplines
	defer func() { disciplines = saved }()
	for _, of := range []Discipline{PS, SRPT} {
		twin := disciplines[of]
		twin.name += "-twin"
		disciplines = append(disciplines, twin)
		d, err := parseDiscipline(twin.name)
		if err != nil || d != Discipline(len(disciplines)-1) || !d.Preemptive() {
			t.Fatalf("%s: parsed as %v (%v), preemptive %v", twin.name, d, err, d.Preemptive())
		}
		for _, c := range []Config{
			{Servers: 4, Policy: Random{}},
			{Servers: 6, Policy: JSQ{D: 2}},
			{Servers: 6, Policy: JSQ{D: 2}, Dispatchers: 3, View: OwnView},
		} {
			c.Load, c.Sizes, c.Jobs, c.Reps, c.Seed = 0.8, Exponential{M: 1}, 20_000, 2, 9
			c.Discipline = of
			want := fmt.Sprintf("%#v", numbers(run(t, c)))
			c.Discipline = d
			if got := fmt.Sprintf("%#v", numbers(run(t, c))); got != want {
				t.Errorf("%s: %s's numbers\n%s\n%s's\n%s", c, twin.name, got, of, want)
			}
		}
	}
}
