package lbsim

// Deterministic sizes: X = X0 always (SCV 0).
type Deterministic struct{ X0 float64 }

func init() {
	mustRegister(sizeRegistry, Family[SizeLaw]{Name: "det", Params: []string{"x"}, Need: []string{"x"},
		Example: "det:x=1", Summary: "every job of size x (SCV 0)",
		New: func(p Params) (SizeLaw, error) { return Deterministic{X0: p["x"]}, nil }})
}

func (s Deterministic) Rand(*Stream) float64  { return s.X0 }
func (s Deterministic) Mean() float64         { return s.X0 }
func (s Deterministic) SecondMoment() float64 { return s.X0 * s.X0 }
func (s Deterministic) Validate() error       { return inRange("det x", s.X0, "e.g. det:x=1") }
func (s Deterministic) String() string        { return "det:x=" + fmtNum(s.X0) }

// belowCut is (1, X0, X0^2) when X0 <= cut, else (0, 0, 0).
func (s Deterministic) belowCut(cut float64) (p, m1, m2 float64) {
	if s.X0 <= cut {
		return 1, s.X0, s.X0 * s.X0
	}
	return 0, 0, 0
}

// atoms is X0 (see atomsLaw).
func (s Deterministic) atoms() []float64 { return []float64{s.X0} }

// thirdMoment is E[X^3] = X0^3.
func (s Deterministic) thirdMoment() float64 { return s.X0 * s.X0 * s.X0 }
