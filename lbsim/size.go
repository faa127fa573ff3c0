package lbsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SizeLaw is the law of i.i.d. job sizes, in units of work (a server of speed
// mu serves a job of size x in x/mu time units).
type SizeLaw interface {
	// Rand draws one size.
	Rand(r *Stream) float64
	// Mean is E[X].
	Mean() float64
	// SecondMoment is E[X^2] (+Inf when it does not exist).
	SecondMoment() float64
	// Validate reports an invalid parameter, naming it, its range and a fix.
	Validate() error
	// String is the law's spec: ParseSizes reads it back as the same law
	// (FuzzSizeRoundTrip), so it also names the law in cache keys.
	String() string
}

// A size law's optional methods: a law of one's own may have them, a
// built-in law has the same methods unexported; the function after each
// pair asks either, the exported one first (a type of one's own that embeds
// a built-in law keeps its own):
//
//	BelowCut(cut float64) (p, m1, m2 float64)  its moments below a cut-off (BelowCut)
//	Atoms() []float64                          its sizes of positive probability, when finitely many
//	ThirdMoment() float64                      E[X^3], +Inf when it does not exist
//	TailIndex() float64                        E[X^j] is finite only for j below it (a heavy tail)
//	Classes() (names []string, cuts []float64) named classes of its jobs (short and long)

// truncated is a size law that knows its moments below a cut-off, for
// SITA with a size cut (each group's load and exact delays) and SRPT's
// theory:
//
//	BelowCut(cut) = (P(X <= cut), E[X; X <= cut], E[X^2; X <= cut]),
//
// with E[Y; A] = E[Y 1_A]; the moments above the cut are the totals minus
// these. Every built-in law has it, in closed form.
type (
	truncated interface {
		BelowCut(cut float64) (p, m1, m2 float64)
	}
	builtinTruncated interface {
		belowCut(cut float64) (p, m1, m2 float64)
	}
)

// BelowCut is s's moments below cut (see truncated); ok is false when s
// does not know them.
func BelowCut(s SizeLaw, cut float64) (p, m1, m2 float64, ok bool) {
	switch t := s.(type) {
	case truncated:
		p, m1, m2 = t.BelowCut(cut)
	case builtinTruncated:
		p, m1, m2 = t.belowCut(cut)
	default:
		return 0, 0, 0, false
	}
	return p, m1, m2, true
}

// atomsLaw is a size law whose mass sits on finitely many sizes (ascending
// and distinct), for the exact finite sums of SRPT's mean
// (theory.MG1SRPT); the deterministic, two-point, empirical and file laws
// have it.
type (
	atomsLaw      interface{ Atoms() []float64 }
	builtinAtomic interface{ atoms() []float64 }
)

// lawAtoms is s's atoms; ok is false when s does not say its mass sits on
// finitely many sizes.
func lawAtoms(s SizeLaw) (atoms []float64, ok bool) {
	switch a := s.(type) {
	case atomsLaw:
		return a.Atoms(), true
	case builtinAtomic:
		return a.atoms(), true
	}
	return nil, false
}

// thirdMomenter is a size law that knows E[X^3] (+Inf when it does not
// exist). Every built-in law has it.
type (
	thirdMomenter        interface{ ThirdMoment() float64 }
	builtinThirdMomenter interface{ thirdMoment() float64 }
)

// lawThirdMoment is s's E[X^3]; ok is false when s does not know it.
func lawThirdMoment(s SizeLaw) (m3 float64, ok bool) {
	switch t := s.(type) {
	case thirdMomenter:
		return t.ThirdMoment(), true
	case builtinThirdMomenter:
		return t.thirdMoment(), true
	}
	return 0, false
}

// tailIndexer: a heavy-tailed law (Pareto, one's own Lomax), E[X^j] finite
// only for j below its tail index, for the warnings and control variates.
type (
	tailIndexer        interface{ TailIndex() float64 }
	builtinTailIndexer interface{ tailIndex() float64 }
)

// lawTailIndex is s's tail index: its TailIndex method's, else +Inf.
func lawTailIndex(s SizeLaw) float64 {
	switch t := s.(type) {
	case tailIndexer:
		return t.TailIndex()
	case builtinTailIndexer:
		return t.tailIndex()
	}
	return math.Inf(1)
}

// classifier is a size law whose jobs fall in named classes (short and
// long jobs of a two-point law); results are then also reported per class.
// A job of size x is in class i when cuts[i-1] < x <= cuts[i].
type (
	classifier interface {
		Classes() (names []string, cuts []float64)
	}
	builtinClassifier interface {
		classes() (names []string, cuts []float64)
	}
)

// lawClasses are the classes of the size law's Classes, if it has them,
// each sent to all k servers.
func lawClasses(sizes SizeLaw, k int) []SizeClass {
	var names []string
	var cuts []float64
	switch cl := sizes.(type) {
	case classifier:
		names, cuts = cl.Classes()
	case builtinClassifier:
		names, cuts = cl.classes()
	default:
		return nil
	}
	out := make([]SizeClass, len(names))
	for i, name := range names {
		out[i] = SizeClass{Name: name, Upper: math.Inf(1), To: k}
		if i < len(cuts) {
			out[i].Upper = cuts[i]
		}
	}
	return out
}

// SizeClass is a class of jobs results are reported for (Result.Classes):
// sizes in (the previous class's Upper, Upper], sent to servers From..To-1,
// bringing the share Work of the work, E[X; class] / E[X] (Config.SizeClasses;
// NaN when the law does not know BelowCut).
type SizeClass struct {
	Name     string
	Upper    float64
	From, To int
	Work     float64
}

// filler is a size law that draws a block of sizes in one call, for speed.
type filler interface {
	fill(r *Stream, out []float64)
}

// SCV is the squared coefficient of variation Var[X]/E[X]^2 of a size law:
// the law's closed form when it has one (the SCV an h2 law was given, 1/k
// for Erlang), else E[X^2]/E[X]^2 - 1, whose cancellation would report
// h2:mean=1,scv=10 as 9.99999999999999.
func SCV(s SizeLaw) float64 {
	if c, ok := s.(interface{ closedSCV() (float64, bool) }); ok {
		if v, ok := c.closedSCV(); ok {
			return v
		}
	}
	m := s.Mean()
	return s.SecondMoment()/(m*m) - 1
}

// sizesName is the law's spec for tables and columns, or for a long one a
// short name (its start, its length and hash; a file's law: the file's base
// name and the start of its SHA-256), so that two laws never share a name.
func sizesName(s SizeLaw) string {
	if n, ok := s.(interface{ shortName() (string, bool) }); ok {
		if name, short := n.shortName(); short {
			return name
		}
		return s.String()
	}
	spec := s.String()
	if len(spec) <= maxSizesName {
		return spec
	}
	h := fnvString(fnvOffset, spec)
	cut := strings.LastIndexByte(spec[:maxSizesName-40], ',')
	return fmt.Sprintf("%s,... (%d bytes, #%016x)", spec[:max(cut, 0)], len(spec), h)
}

// sizesKey is the law's part of Config.Key and of a sweep's id: its name,
// or for a file's law the file's whole SHA-256, whatever its path.
func sizesKey(s SizeLaw) string {
	if k, ok := s.(interface{ contentKey() string }); ok {
		return k.contentKey()
	}
	return sizesName(s)
}

// maxSizesName is the longest spec sizesName gives in full.
const maxSizesName = 200

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// belowText is x > 0 with 4 significant digits rounded down, so that "below
// x" read from the text still holds: 0.41415 is 0.4141, not 0.4142.
func belowText(x float64) string {
	s := strconv.FormatFloat(x, 'e', 3, 64) // d.ddde±XX
	if v, _ := strconv.ParseFloat(s, 64); v > x {
		digits, _ := strconv.Atoi(s[:1] + s[2:5])
		exp, _ := strconv.Atoi(s[6:])
		if digits--; digits < 1000 {
			digits, exp = 9999, exp-1
		}
		s = fmt.Sprintf("%de%d", digits, exp-3)
	}
	v, _ := strconv.ParseFloat(s, 64)
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// loadText is a load with 4 significant digits, or all it needs when 4
// would move it onto or across 1: a load below 1 is never shown as 1.
func loadText(rho float64) string {
	s := strconv.FormatFloat(rho, 'g', 4, 64)
	if v, _ := strconv.ParseFloat(s, 64); (v < 1) != (rho < 1) || (v > 1) != (rho > 1) {
		return fmtNum(rho)
	}
	return s
}
