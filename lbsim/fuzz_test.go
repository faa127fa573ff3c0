package lbsim

import (
	"math"
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
		back, err := ParseSizes(s.String())
		if err != nil {
			t.Fatalf("%q -> %q does not parse back: %v", spec, s.String(), err)
		}
		if rel := math.Abs(back.Mean()-s.Mean()) / s.Mean(); rel > 1e-9 {
			t.Fatalf("%q -> %q: mean %v vs %v", spec, s.String(), s.Mean(), back.Mean())
		}
	})
}

func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{"rnd", "rr", "ll:d=2", "lwl", "jsq:d=3", "jsq", "sita:c=20", "sita:cut=10,c=20",
		"ll:d=0", "ll", "sita:c=1.5", "jsq:d=-2", "rr:x=1", "LL:D=2",
		"jiq", "jsq:d=2,mem=1", "ll:d=3,replace=1,mem=2", "jsq:mem=1", "ll:d=2,mem=0", "jiq:mem=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := ParsePolicy(spec)
		if err != nil {
			return
		}
		back, err := ParsePolicy(p.String())
		if err != nil || back != p {
			t.Fatalf("%q -> %q -> %v, %v", spec, p.String(), back, err)
		}
		_ = validatePolicy(p, 10, NewTwoPointBeta(1, 1000, 0.8)) // must not panic
	})
}

func FuzzParseArrivals(f *testing.F) {
	for _, s := range []string{"poisson", "det", "ramp:from=0.5,to=1.2,over=1000", "ramp:from=-1,to=1,over=1", "ramp:to=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		a, err := ParseArrivals(spec)
		if err != nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("%q parsed but is invalid: %v", spec, err)
		}
		if back, err := ParseArrivals(a.String()); err != nil || back != a {
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
