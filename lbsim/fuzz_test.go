package lbsim

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The spec parsers never panic, and whatever they accept is valid and reads
// back from its own String() as the same law or policy.
func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"exp:mean=1", "det:x=2", "twopoint:xm=1,xM=1000,beta=0.8", "twopoint:xm=1,xM=20,p=0.05",
		"h2:mean=1,scv=30", "pareto:alpha=2.2,mean=1", "pareto:alpha=1.5,mean=2,max=1000", "modal:100,500,1000",
		"exp:mean=-1", "twopoint:xm=3,xM=1", "h2:mean=1,scv=0.2", "exp", "modal:", "pareto:alpha=1,mean=1", ":", "det:x=1e309"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseSizes(spec)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("%q parsed but is invalid: %v", spec, err)
		}
		if m := s.Mean(); !(m > 0) || math.IsInf(m, 0) {
			t.Fatalf("%q: mean %v", spec, m)
		}
		sameLaw(t, spec, s)
	})
}

// sameLaw checks that ParseSizes(s.String()) is s: the same spec, the same
// moments to the last bit and the same draws from the same stream.
func sameLaw(t *testing.T, from string, s SizeLaw) {
	t.Helper()
	spec := s.String()
	back, err := ParseSizes(spec)
	if err != nil {
		t.Fatalf("%s -> %q does not parse back: %v", from, spec, err)
	}
	if back.String() != spec {
		t.Fatalf("%s -> %q -> %q", from, spec, back.String())
	}
	if math.Float64bits(back.Mean()) != math.Float64bits(s.Mean()) || math.Float64bits(back.SecondMoment()) != math.Float64bits(s.SecondMoment()) {
		t.Fatalf("%s -> %q: moments %v, %v read back as %v, %v", from, spec, s.Mean(), s.SecondMoment(), back.Mean(), back.SecondMoment())
	}
	r1, r2 := newStream(1, 0, streamSizes), newStream(1, 0, streamSizes)
	for i := range 64 {
		if x, y := s.Rand(r1), back.Rand(r2); math.Float64bits(x) != math.Float64bits(y) {
			t.Fatalf("%s -> %q: draw %d is %v, read back %v", from, spec, i, x, y)
		}
	}
}

// Every size law, built by hand or by its constructor from any parameters,
// prints a spec that ParseSizes reads back as the same law (sameLaw), or is
// invalid. The hand-built cases are those a spec cannot say directly: an H2
// by its phases, a Pareto by its lower end, a two-point law whose Beta does
// not give its P, a balanced H2 with a phase changed afterwards, many
// empirical values.
func FuzzSizeRoundTrip(f *testing.F) {
	f.Add(uint8(0), 1.0, 0.0, 0.0, uint8(0))
	f.Add(uint8(2), 1.0, 1000.0, 0.01, uint8(0))
	f.Add(uint8(3), 1.0, 1000.0, 0.01, uint8(0)) // TwoPoint{1, 1000, 0.01, Beta 0.8}
	f.Add(uint8(4), 1.0, 1000.0, 0.8, uint8(0))
	f.Add(uint8(5), 1.8, 0.2, 0.9, uint8(0)) // H2{P1 0.9, Rate1 1.8, Rate2 0.2}
	f.Add(uint8(6), 1.0, 30.0, 0.0, uint8(0))
	f.Add(uint8(7), 1.5, 1.0/3, math.Inf(1), uint8(0))
	f.Add(uint8(8), 2.2, 1.0, 1000.0, uint8(0))
	f.Add(uint8(9), 6.5, 1.25, 3.0, uint8(12)) // NewEmpirical of 12 values
	f.Add(uint8(10), 1.0, 10.0, 0.5, uint8(0))
	f.Add(uint8(11), 2.5, 0.5, 0.0, uint8(3))
	f.Add(uint8(12), 2.0, 0.0, 0.0, uint8(4))
	f.Fuzz(func(t *testing.T, kind uint8, a, b, c float64, n uint8) {
		var s SizeLaw
		var err error
		switch kind % 13 {
		case 0:
			s = Exponential{M: a}
		case 1:
			s = Deterministic{X0: a}
		case 2:
			s = TwoPoint{Xm: a, XM: b, P: c}
		case 3:
			s = TwoPoint{Xm: a, XM: b, P: c, Beta: 0.8}
		case 4:
			s = NewTwoPointBeta(a, b, c)
		case 5:
			s = H2{P1: c, Rate1: a, Rate2: b}
		case 6:
			s, err = NewH2Balanced(a, b)
		case 7:
			s = Pareto{Alpha: a, L: b, H: c}
		case 8:
			s, err = NewPareto(a, b, c)
		case 9:
			vs := make([]float64, n)
			for i := range vs {
				vs[i] = a + b*float64(i%7) + c*float64(i%3)
			}
			s = NewEmpirical(vs)
		case 10:
			var h H2
			if h, err = NewH2Balanced(a, b); err == nil {
				h.Rate2 *= c
				s = h
			}
		case 11:
			vs := make([]float64, n)
			for i := range vs {
				vs[i] = a * float64(i+1) * (1 + b)
			}
			s = NewModal(vs...)
		case 12:
			s = Erlang{K: int(n), M: a}
		}
		if err != nil || s.Validate() != nil {
			return
		}
		if m, m2 := s.Mean(), s.SecondMoment(); !(m > 0) || math.IsInf(m, 0) || math.IsNaN(m2) {
			return // Config.Validate refuses these (see config_limits.go)
		}
		sameLaw(t, fmt.Sprintf("%#v", s), s)
	})
}

func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{"rnd", "rr", "ll:d=2", "lwl", "jsq:d=3", "jsq", "sita:c=20", "sita:cut=10,c=20",
		"ll:d=0", "ll", "sita:c=1.5", "jsq:d=-2", "rr:x=1", "LL:D=2",
		"jiq", "jsq:d=2,mem=1", "ll:d=3,replace=1,mem=2", "jsq:mem=1", "ll:d=2,mem=0", "jiq:mem=1",
		"rnd:weights=2/1/1", "sita:cuts=1/10,servers=3/3/4", "sita:cuts=1,servers=5/5", "sita:groups=10", "sita:groups=1",
		"sita:cuts=10/1,servers=3/3/4", "sita:cuts=1,servers=2.5/7.5", "sita:groups=2,c=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := ParsePolicy(spec)
		if err != nil {
			return
		}
		back, err := ParsePolicy(p.String())
		if err != nil || !reflect.DeepEqual(back, p) { // a policy with a list (weights, cuts) is not comparable with !=
			t.Fatalf("%q -> %q -> %v, %v", spec, p.String(), back, err)
		}
		c := Config{Servers: 10, Sizes: NewTwoPointBeta(1, 1000, 0.8), Policy: p}
		_ = impl(p).validate(&c) // must not panic
		_ = Describe(p, c)
	})
}

func FuzzParseArrivals(f *testing.F) {
	for _, s := range []string{"poisson", "det", "ramp:from=0.5,to=1.2,over=1000", "ramp:from=-1,to=1,over=1", "ramp:to=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		a, err := arrivalRegistry.parse(spec)
		if err != nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("%q parsed but is invalid: %v", spec, err)
		}
		if back, err := arrivalRegistry.parse(a.String()); err != nil || back != a {
			t.Fatalf("%q -> %q -> %v, %v", spec, a.String(), back, err)
		}
	})
}

// ReadTrace never panics; an accepted trace is sorted with positive sizes.
func FuzzReadTrace(f *testing.F) {
	for _, s := range []string{"arrival,size\n0,1\n1,2\n", "0,1\n0,1\n", "1,x\n", "2,1\n1,1\n", "# c\n\n0,1e3\n", "0,-1\n", "a,b\nc,d\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, csv string) {
		tr, err := ReadTrace(strings.NewReader(csv))
		if err != nil {
			return
		}
		for i := range tr.Times {
			if !(tr.Sizes[i] > 0) || (i > 0 && tr.Times[i] < tr.Times[i-1]) || math.IsNaN(tr.Times[i]) {
				t.Fatalf("accepted bad row %d: %v,%v", i, tr.Times[i], tr.Sizes[i])
			}
		}
	})
}

// The cases of the issue that found the gap: a hand-built H2 and an
// empirical law of 12 values print specs that read back, and two two-point
// laws that differ only in P no longer print the same spec (and so share
// no cache key).
func TestSizeSpecsNameTheLaw(t *testing.T) {
	vs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	for _, tc := range []struct {
		law  SizeLaw
		spec string
	}{
		{H2{P1: 0.9, Rate1: 1.8, Rate2: 0.2}, "h2:p1=0.9,rate1=1.8,rate2=0.2"},
		{NewEmpirical(vs), "empirical:1,2,3,4,5,6,7,8,9,10,11,12"},
		{TwoPoint{Xm: 1, XM: 1000, P: 0.01, Beta: 0.8}, "twopoint:xm=1,xM=1000,p=0.01"},
		{TwoPoint{Xm: 1, XM: 1000, P: 0.02, Beta: 0.8}, "twopoint:xm=1,xM=1000,p=0.02"},
		{NewTwoPointBeta(1, 1000, 0.8), "twopoint:xm=1,xM=1000,beta=0.8"},
		{Pareto{Alpha: 1.5, L: 0.5, H: math.Inf(1)}, "pareto:alpha=1.5,min=0.5"},
	} {
		if got := tc.law.String(); got != tc.spec {
			t.Errorf("%#v prints %q, want %q", tc.law, got, tc.spec)
		}
		sameLaw(t, tc.spec, tc.law)
	}
	h, _ := NewH2Balanced(1, 10)
	h.Rate2 = 0.5 // no longer the balanced law of mean 1, SCV 10
	if s := h.String(); strings.Contains(s, "scv") {
		t.Errorf("a changed H2 still prints its old spec %q", s)
	}
}
