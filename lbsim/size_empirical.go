package lbsim

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Empirical sizes: a uniform choice among Values (repeated values weigh
// more). The course's "modal" mix {100, 500, 1000} is NewModal(100, 500, 1000).
type Empirical struct {
	Values []float64
	name   string          // "modal" or "empirical", for String
	tab    *empiricalTable // built by NewEmpirical and NewModal; nil for a literal (built on each use)
}

// empiricalTable is what the law's theory reads, computed once: the
// moments (summed in Values' order), and on first use the sorted values
// with their prefix sums (belowCut) and a hash naming the values.
type empiricalTable struct {
	values     []float64
	m1, m2, m3 float64

	once   sync.Once
	sorted []float64
	p1, p2 []float64 // p1[i] = sum of sorted[:i], p2[i] of their squares
	hash   uint64    // hashFloats(values)
	resp   struct {  // atomsOver the law and the last distinct speeds asked (responseAtoms)
		sync.Mutex
		speeds, atoms []float64
	}
}

// responseAtoms is atomsOver(s, speeds), s t's law, kept for the last speeds:
// each replication asks, and it sorts n atoms a speed. Readers must not write it.
func (t *empiricalTable) responseAtoms(s Empirical, speeds []float64) []float64 {
	t.resp.Lock()
	defer t.resp.Unlock()
	if t.resp.atoms == nil || !slices.Equal(t.resp.speeds, speeds) {
		t.resp.speeds, t.resp.atoms = speeds, atomsOver(s, speeds)
	}
	return t.resp.atoms
}

func newEmpiricalTable(xs []float64) *empiricalTable {
	t := &empiricalTable{values: xs}
	for _, v := range xs {
		t.m1, t.m2, t.m3 = t.m1+v, t.m2+v*v, t.m3+v*v*v
	}
	n := float64(len(xs))
	t.m1, t.m2, t.m3 = t.m1/n, t.m2/n, t.m3/n
	return t
}

// sort builds the sorted values, their prefix sums and the hash, once.
func (t *empiricalTable) sort() *empiricalTable {
	t.once.Do(func() {
		t.sorted = slices.Clone(t.values)
		slices.Sort(t.sorted)
		t.p1, t.p2 = make([]float64, len(t.sorted)+1), make([]float64, len(t.sorted)+1)
		for i, v := range t.sorted {
			t.p1[i+1], t.p2[i+1] = t.p1[i]+v, t.p2[i]+v*v
		}
		t.hash = hashFloats(t.values)
	})
	return t
}

// tableBytes is the memory sort allocates (memoryParts): the sorted
// values and their two prefix sums.
func (s Empirical) tableBytes() int64 {
	n := int64(len(s.Values))
	return allocBytes(8*n) + 2*allocBytes(8*(n+1))
}

func init() {
	for _, f := range []Family[SizeLaw]{
		{Name: "modal", Example: "modal:100,500,1000", Summary: "a uniform choice among the listed sizes (the course's modal mix)",
			NewList: func(xs []float64) (SizeLaw, error) { return NewModal(xs...), nil }},
		{Name: "empirical", Example: "empirical:1,2,2,7", Summary: "observed sizes resampled uniformly (repeats weigh more)",
			NewList: func(xs []float64) (SizeLaw, error) { return NewEmpirical(xs), nil }},
	} {
		mustRegister(sizeRegistry, f)
	}
}

// NewModal is the uniform choice among the listed sizes.
func NewModal(values ...float64) Empirical {
	return Empirical{Values: values, name: "modal", tab: newEmpiricalTable(values)}
}

// NewEmpirical resamples observed sizes uniformly. Its moments are computed
// here, once: values must not change afterwards.
func NewEmpirical(values []float64) Empirical {
	return Empirical{Values: values, name: "empirical", tab: newEmpiricalTable(values)}
}

// table is the law's precomputed table (built now for a literal Empirical).
func (s Empirical) table() *empiricalTable {
	if s.tab != nil {
		return s.tab
	}
	return newEmpiricalTable(s.Values)
}

func (s Empirical) Rand(r *Stream) float64 { return s.Values[r.IntN(len(s.Values))] }
func (s Empirical) Mean() float64          { return s.table().m1 }
func (s Empirical) SecondMoment() float64  { return s.table().m2 }

// thirdMoment is E[X^3] = sum of x^3 over Values / n.
func (s Empirical) thirdMoment() float64 { return s.table().m3 }

// belowCut is (the number of, the sum of x and of x^2 over) the values
// x <= cut, each over n = len(Values); repeated values count each time.
func (s Empirical) belowCut(cut float64) (p, m1, m2 float64) {
	t := s.table().sort()
	i := sort.Search(len(t.sorted), func(i int) bool { return t.sorted[i] > cut })
	if i == len(t.sorted) {
		return 1, t.m1, t.m2 // all of them: the totals, summed as Mean's
	}
	n := float64(len(t.sorted))
	return float64(i) / n, t.p1[i] / n, t.p2[i] / n
}

// atoms are the distinct values, ascending (see atomsLaw).
func (s Empirical) atoms() []float64 { return slices.Compact(slices.Clone(s.table().sort().sorted)) }

func (s Empirical) Validate() error {
	if len(s.Values) == 0 {
		return fmt.Errorf("%s sizes: no values given; list at least one, e.g. modal:100,500,1000", s.kind())
	}
	for i, v := range s.Values {
		if !(v >= MinMagnitude && v <= MaxMagnitude) { // the message is built for a bad value only
			return inRange(fmt.Sprintf("%s value #%d", s.kind(), i+1), v, "sizes must be positive")
		}
	}
	return nil
}
func (s Empirical) kind() string {
	if s.name == "" {
		return "empirical"
	}
	return s.name
}

// String lists every value (tables and keys shorten it: sizesName).
func (s Empirical) String() string {
	spec, _ := s.spec(math.MaxInt)
	return spec
}

// spec is String up to about limit bytes: the values that fit, and
// whether that is all of them.
func (s Empirical) spec(limit int) (string, bool) {
	var b strings.Builder
	b.WriteString(s.kind())
	sep := ":"
	for _, v := range s.Values {
		if b.Len() > limit {
			return b.String(), false
		}
		b.WriteString(sep)
		b.WriteString(fmtNum(v))
		sep = ","
	}
	return b.String(), true
}

// shortName is sizesName's for a spec longer than maxSizesName: its first
// values, their number and hash, without writing all of them.
func (s Empirical) shortName() (string, bool) {
	head, all := s.spec(maxSizesName)
	if all && len(head) <= maxSizesName {
		return "", false
	}
	cut := strings.LastIndexByte(head[:maxSizesName-40], ',')
	return fmt.Sprintf("%s,... (%d values #%016x)", head[:max(cut, 0)], len(s.Values), s.table().sort().hash), true
}
