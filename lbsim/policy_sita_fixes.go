package lbsim

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// The fixes SITA's errors offer: each a configuration that the tool
// itself accepts (accepts), built for the configuration at hand: cutoffs
// of equal loads at the servers' speeds, servers split in proportion to
// the work (apportion), groups around a real atom of the law, the c near
// the equal-load c.

// fix is the spec of the first candidate that c accepts (accepted), ""
// if none does; at parsing (c nil) form, the form's example.
func (p SITA) fix(c *Config, form string, candidates ...Policy) string {
	if c == nil {
		return form
	}
	if q := p.accepted(c, candidates...); q != nil {
		return q.String()
	}
	return ""
}

// accepted is the first candidate that c accepts (accepts) with a spec of
// at most maxFix bytes, nil if none; none for a candidate being checked,
// whose refusal is all accepts reads.
func (p SITA) accepted(c *Config, candidates ...Policy) Policy {
	if p.quiet {
		return nil
	}
	for _, q := range candidates {
		if q != nil && len(q.String()) <= maxFix && accepts(c, q) {
			return q
		}
	}
	return nil
}

// maxFix is the longest spec a fix shows: a longer one (the cutoffs of
// many groups) would bury the message.
const maxFix = 200

// eg is a fix appended to an error's advice, "" for none.
func eg(fix string) string {
	if fix == "" {
		return ""
	}
	return ", e.g. " + fix
}

// accepts reports whether c with policy q passes Validate, and with a
// trace (whose loads Validate leaves to a warning) keeps every server's
// load below 1: the test of every fix a SITA error offers, so that none is
// refused in turn.
func accepts(c *Config, q Policy) bool {
	if s, ok := q.(SITA); ok {
		s.quiet = true
		q = s
	}
	d := *c
	d.Policy = q
	if d.Validate() != nil {
		return false
	}
	if c.Trace != nil && !c.AllowOverload {
		for _, l := range d.serverLoads() {
			if l.rho >= 1 {
				return false
			}
		}
	}
	return true
}

// serversFix is "-servers N" when c accepts p on n servers, else "".
func (p SITA) serversFix(c *Config, n int) string {
	if p.quiet || len(c.Speeds) > 1 { // K speeds do not fit another K
		return ""
	}
	d := *c
	d.Servers = n
	if !accepts(&d, p) {
		return ""
	}
	return fmt.Sprintf("-servers %d", n)
}

// equalLoadFix is q's form and servers (K split evenly where q's do not
// fit) with the cutoffs at which every server carries the same load at
// its speed: each group's share of the work in proportion to its servers
// times its slowest speed (SITA-E's cutoffs at equal speeds), at sizes of
// the law where it jumps; nil when there are none, or without c.
func equalLoadFix(c *Config, q SITA) Policy {
	if c == nil || c.sizes() == nil {
		return nil
	}
	k, counts := c.Servers, q.servers(c.Servers)
	if q.Cuts != nil && (len(counts) != len(q.Cuts)+1 || sum(counts) != k || slices.Min(counts) < 1) {
		counts = (SITA{Groups: len(q.Cuts) + 1}).servers(k)
	}
	if len(counts) < 2 || slices.Min(counts) < 1 || sum(counts) != k {
		return nil
	}
	weights := make([]float64, len(counts))
	from := 0
	for g, n := range counts {
		slowest := math.Inf(1)
		for i := from; i < from+n; i++ {
			slowest = min(slowest, c.speed(i))
		}
		weights[g], from = float64(n)*slowest, from+n
	}
	cuts, err := shareCuts(c.sizes(), weights)
	if err != nil {
		return nil
	}
	cuts = shortCuts(c.sizes(), cuts)
	if q.Groups == 0 && q.Cuts == nil {
		return SITA{C: counts[0], Cut: cuts[0]}
	}
	return SITA{Cuts: cuts, Servers: counts}
}

// serversFixes are p's cutoffs with K servers among its groups: its counts
// scaled to K, in proportion to each group's work, evenly; then the
// equal-load cutoffs of an even split.
func (p SITA) serversFixes(c *Config) []Policy {
	groups := len(p.Cuts) + 1
	if c == nil || c.Servers < groups {
		return nil
	}
	k := c.Servers
	var out []Policy
	if len(p.Servers) == groups {
		weights := make([]float64, groups)
		for i, n := range p.Servers {
			weights[i] = float64(max(n, 0))
		}
		out = append(out, SITA{Cuts: p.Cuts, Servers: apportion(k, weights)})
	}
	if c.sizes() != nil {
		if work, ok := groupWork(c.sizes(), append(slices.Clone(p.Cuts), math.Inf(1))); ok {
			out = append(out, SITA{Cuts: p.Cuts, Servers: apportion(k, work)})
		}
	}
	return append(out, SITA{Cuts: p.Cuts, Servers: (SITA{Groups: groups}).servers(k)}, equalLoadFix(c, SITA{Groups: groups}))
}

// apportion splits k servers among len(weights) <= k groups in proportion
// to the weights, one each and then each next to the group of most weight
// per server (D'Hondt): the split whose most loaded server is least loaded.
func apportion(k int, weights []float64) []int {
	out := make([]int, len(weights))
	h := &byLoad{weights: weights, n: out}
	for g := range out {
		out[g] = 1
		h.order = append(h.order, g)
	}
	heap.Init(h)
	for range k - len(out) {
		out[h.order[0]]++
		heap.Fix(h, 0)
	}
	return out
}

// byLoad orders groups by weight per server, most first, ties to the first group.
type byLoad struct {
	weights []float64
	n       []int
	order   []int
}

func (h *byLoad) Len() int { return len(h.order) }
func (h *byLoad) Less(i, j int) bool {
	a, b := h.order[i], h.order[j]
	wa, wb := h.weights[a]/float64(h.n[a]), h.weights[b]/float64(h.n[b])
	return wa > wb || wa == wb && a < b
}

func (h *byLoad) Swap(i, j int) { h.order[i], h.order[j] = h.order[j], h.order[i] }
func (h *byLoad) Push(any)      {}
func (h *byLoad) Pop() any      { return nil }

// shortCuts are cutoffs as a fix shows them: for a law of atoms the fewest
// digits (4 or more) that keep the same sizes below each, else 4; all
// digits where rounding breaks their order.
func shortCuts(sizes SizeLaw, cuts []float64) []float64 {
	_, atomic := lawAtoms(sizes)
	out := make([]float64, len(cuts))
	for i, x := range cuts {
		out[i] = x
		p0, _, _, _ := BelowCut(sizes, x)
		for digits := 4; digits < 17; digits++ {
			r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
			if p1, _, _, _ := BelowCut(sizes, r); !atomic || p1 == p0 {
				out[i] = r
				break
			}
		}
	}
	for i := range out {
		if !(out[i] > 0) || i > 0 && !(out[i] > out[i-1]) {
			return cuts
		}
	}
	return out
}

// guessCuts are cutoffs for a law that does not know its partial moments:
// G-1 multiples of its mean, 2g/G E[X], with the given servers.
func (p SITA) guessCuts(c *Config, counts []int) Policy {
	g, mean := len(counts), c.sizes().Mean()
	cuts := make([]float64, g-1)
	for i := range cuts {
		cuts[i] = 2 * float64(i+1) / float64(g) * mean
	}
	return SITA{Cuts: shortCuts(c.sizes(), cuts), Servers: counts}
}

// atomError is the refusal of SITA-E for a law with an atom that holds
// more work than a group next to its cutoff needs (theory.NearestLoadCuts),
// with G groups at sizes of the law that c accepts.
func (p SITA) atomError(c *Config, e *theory.AtomError, counts []int) error {
	mean := c.sizes().Mean()
	msg := fmt.Sprintf("sita groups=%d with %s: no cutoff gives each server the same load: servers 1..%d need the jobs that bring %.4g of the work, but the sizes at x = %s bring it from %.4g to %.4g at once (an atom of the law)",
		p.Groups, c.sizesText(), sum(counts[:e.Group]), e.Level/mean, fmtNum(e.X), e.Below/mean, e.At/mean)
	if xs, ok := lawAtoms(c.sizes()); ok && len(xs) == 1 {
		msg += "; every job has the same size, which size intervals cannot split"
		var use []string
		for _, spec := range []string{"rnd", "rr", "rnd:weights=speed", "rr:weights=speed"} {
			if len(use) == 2 && allEqual(c.Speeds) {
				break // weights=speed is the same split
			}
			if q, err := ParsePolicy(spec); err == nil && !p.quiet && accepts(c, q) {
				use = append(use, spec)
			}
		}
		if len(use) > 0 {
			msg += "; use " + strings.Join(use, " or ")
		}
		return errors.New(msg)
	}
	group := e.Group // the smaller of the groups on either side
	if counts[e.Group] < counts[e.Group-1] {
		group++
	}
	fix := ""
	if q, ok := p.accepted(c, p.atomFixes(c, e, counts)...).(SITA); ok {
		fix = ", e.g. " + q.String()
		if n := len(q.Servers); n < len(counts) {
			fix += fmt.Sprintf(" (%d groups: %d leave the atom too few servers)", n, len(counts))
		}
	}
	return fmt.Errorf("%s, more than group %d needs (%.4g); give cutoffs at sizes of the law and servers in proportion to the work%s",
		msg, group, e.Need/mean, fix)
}

// atomFixes are groups at sizes of the law, servers in proportion to each
// group's work: for a law of atoms G groups (atomicSplit), then fewer, for
// an atom that needs more servers than G groups leave it; else two groups
// cut at the atom (at the size before it when it is the largest).
func (p SITA) atomFixes(c *Config, e *theory.AtomError, counts []int) []Policy {
	sizes, k := c.sizes(), c.Servers
	xs, ok := lawAtoms(sizes)
	if !ok {
		cut := e.X
		if e.At >= sizes.Mean()*(1-1e-9) { // nothing above the atom
			cut = e.Before
		}
		if !(cut > 0) {
			return nil
		}
		work, _ := groupWork(sizes, []float64{cut, math.Inf(1)})
		return []Policy{SITA{Cuts: shortCuts(sizes, []float64{cut}), Servers: apportion(k, work)}}
	}
	cum := make([]float64, len(xs)) // E[X; X <= x_i]
	for i, x := range xs {
		_, cum[i], _, _ = BelowCut(sizes, x)
	}
	var out []Policy
	for g, tries := len(counts), 0; g >= 2 && tries < 12; tries++ {
		if cuts := atomicSplit(cum, g); cuts != nil {
			at := make([]float64, len(cuts))
			for i, j := range cuts {
				at[i] = xs[j]
			}
			work, _ := groupWork(sizes, append(slices.Clone(at), math.Inf(1)))
			out = append(out, SITA{Cuts: shortCuts(sizes, at), Servers: apportion(k, work)})
		}
		if g--; tries >= 5 {
			g = g * 3 / 4
		}
	}
	return out
}

// atomicSplit cuts a law of atoms into G groups of about equal work, given
// its partial moments cum at its sizes: an atom holding more than an even
// share of what such atoms leave is a group of its own (water-filling),
// the others are grouped in order, each group closed where its work is
// nearest that share, then the lightest neighbours merged or the heaviest
// split to make G. It returns the G-1 cutoffs as indexes of sizes, nil when
// there are not enough sizes.
func atomicSplit(cum []float64, groups int) []int {
	n := len(cum)
	work := func(i int) float64 {
		if i == 0 {
			return cum[0]
		}
		return cum[i] - cum[i-1]
	}
	big, bigWork, nBig := make([]bool, n), 0.0, 0
	share := 0.0
	for grown := true; grown; {
		if grown = false; nBig >= groups {
			return nil
		}
		share = (cum[n-1] - bigWork) / float64(groups-nBig)
		for i := range n {
			if !big[i] && work(i) > share {
				big[i], bigWork, nBig, grown = true, bigWork+work(i), nBig+1, true
			}
		}
	}
	var ends []int // each group's last size
	open, w := false, 0.0
	for i := range n {
		if big[i] {
			if open {
				ends, open = append(ends, i-1), false
			}
			ends = append(ends, i)
			continue
		}
		if !open {
			open, w = true, 0
		}
		if w += work(i); i+1 < n && !big[i+1] && math.Abs(w+work(i+1)-share) > math.Abs(w-share) {
			ends, open = append(ends, i), false
		}
	}
	if open {
		ends = append(ends, n-1)
	}
	from := func(j int) int { // a group's first size
		if j == 0 {
			return 0
		}
		return ends[j-1] + 1
	}
	groupWork := func(j int) float64 { return cum[ends[j]] - cum[from(j)] + work(from(j)) }
	for len(ends) != groups {
		best := -1
		for j := range ends {
			small := !big[ends[j]]
			switch {
			case len(ends) > groups && j+1 < len(ends) && small && !big[ends[j+1]] && // merge j and j+1
				(best < 0 || groupWork(j)+groupWork(j+1) < groupWork(best)+groupWork(best+1)):
				best = j
			case len(ends) < groups && small && ends[j] > from(j) && (best < 0 || groupWork(j) > groupWork(best)): // split j
				best = j
			}
		}
		if best < 0 {
			return nil
		}
		if len(ends) > groups {
			ends = slices.Delete(ends, best, best+1)
			continue
		}
		lo, half := from(best), groupWork(best)/2
		mid := lo
		for mid+1 < ends[best] && cum[mid+1]-cum[lo]+work(lo) <= half {
			mid++
		}
		ends = slices.Insert(ends, best, mid)
	}
	return ends[:groups-1]
}

// loadAdvice is added to the error for an unstable group: with two-point
// sizes and one cut the c near the one that gives both groups the same
// load, c_E = K (1-p) x_m / E[X]; with several groups the cutoffs of equal
// loads, SITA-E's or for p's servers at their speeds; only a fix that c
// accepts.
func (p SITA) loadAdvice(c *Config) string {
	if _, ok := c.sizes().(TwoPoint); ok && p.Groups == 0 && p.Cuts == nil {
		if cE, near := p.equalC(c); cE > 0 {
			if fix := p.fix(c, "", near...); fix != "" {
				return fmt.Sprintf("choose c near the equal-load c=%d (K (1-p) x_m / E[X]), e.g. %s, ", cE, fix)
			}
		}
		return ""
	}
	counts := p.servers(c.Servers)
	var cands []Policy
	if p.Groups == 0 {
		cands = append(cands, SITA{Groups: len(counts)})
	}
	switch fix := p.fix(c, "", append(cands, equalLoadFix(c, p))...); {
	case fix == "":
		return ""
	case strings.HasPrefix(fix, "sita:groups="):
		return fmt.Sprintf("use the cutoffs of equal loads, %s, ", fix)
	default:
		return fmt.Sprintf("use the cutoffs at which these servers carry equal loads at their speeds, %s, ", fix)
	}
}

// equalC is the c at which p's two groups carry the same load, K times
// the share of the work at or below the cut (x_m for two-point sizes
// without one: K (1-p) x_m / E[X]), 0 when not known, and the SITAs of
// p's cut with it and its neighbours in 1..K-1, nearest first.
func (p SITA) equalC(c *Config) (int, []Policy) {
	cut, sizes, k := p.Cut, c.sizes(), c.Servers
	if tp, ok := sizes.(TwoPoint); ok && cut == 0 {
		cut = tp.Xm
	}
	if sizes == nil || !(cut > 0) {
		return 0, nil
	}
	_, m1, _, ok := BelowCut(sizes, cut)
	if !ok {
		return 0, nil
	}
	cE := int(math.Round(float64(k) * m1 / sizes.Mean()))
	var near []Policy
	for _, d := range []int{0, -1, 1, -2, 2, -3, 3} {
		if cE+d >= 1 && cE+d < k {
			near = append(near, SITA{C: cE + d, Cut: p.Cut})
		}
	}
	return cE, near
}
