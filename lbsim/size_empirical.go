package lbsim

import (
	"fmt"
	"strings"
)

// Empirical sizes: a uniform choice among Values (repeated values weigh
// more). The course's "modal" mix {100, 500, 1000} is NewModal(100, 500, 1000).
type Empirical struct {
	Values []float64
	name   string // "modal" or "empirical", for String
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
func NewModal(values ...float64) Empirical { return Empirical{Values: values, name: "modal"} }

// NewEmpirical resamples observed sizes uniformly.
func NewEmpirical(values []float64) Empirical { return Empirical{Values: values, name: "empirical"} }

func (s Empirical) Rand(r *Stream) float64 { return s.Values[r.IntN(len(s.Values))] }
func (s Empirical) Mean() float64 {
	sum := 0.0
	for _, v := range s.Values {
		sum += v
	}
	return sum / float64(len(s.Values))
}
func (s Empirical) SecondMoment() float64 {
	sum := 0.0
	for _, v := range s.Values {
		sum += v * v
	}
	return sum / float64(len(s.Values))
}

// thirdMoment is E[X^3] = sum of x^3 over Values / n.
func (s Empirical) thirdMoment() float64 {
	sum := 0.0
	for _, v := range s.Values {
		sum += v * v * v
	}
	return sum / float64(len(s.Values))
}

// belowCut is (the number of, the sum of x and of x^2 over) the values
// x <= cut, each over n = len(Values); repeated values count each time.
func (s Empirical) belowCut(cut float64) (p, m1, m2 float64) {
	for _, v := range s.Values {
		if v <= cut {
			p, m1, m2 = p+1, m1+v, m2+v*v
		}
	}
	n := float64(len(s.Values))
	return p / n, m1 / n, m2 / n
}
func (s Empirical) Validate() error {
	if len(s.Values) == 0 {
		return fmt.Errorf("%s sizes: no values given; list at least one, e.g. modal:100,500,1000", s.kind())
	}
	for i, v := range s.Values {
		if err := positive(fmt.Sprintf("%s value #%d", s.kind(), i+1), v, "sizes must be positive"); err != nil {
			return err
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

// String lists every value (a law of many values has a long spec; tables
// and keys shorten it, see sizesName).
func (s Empirical) String() string {
	var b strings.Builder
	b.WriteString(s.kind())
	sep := ":"
	for _, v := range s.Values {
		b.WriteString(sep)
		b.WriteString(fmtNum(v))
		sep = ","
	}
	return b.String()
}
