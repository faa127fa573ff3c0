package lbsim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// SITA (size interval task assignment) splits the servers, in order, into
// groups, and sends a job uniformly to the servers of the group of its
// size: group g takes the sizes in (x_{g-1}, x_g], x_0 = 0 and x_G = +Inf.
// It is given in one of three forms:
//
//   - C (sita:c=C, sita:cut=X,c=C): short jobs to servers 1..C, long ones
//     to C+1..K; long is size > Cut, or with Cut = 0 (two-point sizes only)
//     x = x_M.
//   - Cuts and Servers (sita:cuts=X1/X2,servers=C1/C2/C3): G-1 increasing
//     cutoffs and the G groups' server counts, summing to K.
//   - Groups (sita:groups=G): G groups as equal as possible (the first
//     K mod G one server larger), cut where every server carries the same
//     work, E[X; X <= x_g] = (servers of groups 1..g / K) E[X] (BelowCut):
//     SITA-E (Harchol-Balter, Crovella and Murta 1999) when G = K.
//
// With Poisson arrivals each server is an M/G/1 queue fed by one group's sizes.
type SITA struct {
	C       int
	Cut     float64
	Cuts    []float64
	Servers []int
	Groups  int
}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "sita", Params: []string{"c", "cut", "cuts", "servers", "groups"}, Lists: []string{"cuts", "servers"},
		Example: "sita:c=20",
		Summary: "size interval: short jobs to servers 1..c, long ones to c+1..K (sita:cut=X,c=C: long means size > X; sita:cuts=X1/X2,servers=C1/C2/C3: several groups; sita:groups=G: cutoffs of equal loads, SITA-E for G=K)",
		New:     newSITA})
}

// newSITA reads one of SITA's three forms from a spec's parameters.
func newSITA(p Params) (Policy, error) {
	const forms = "give c (sita:c=20 or sita:cut=10,c=20), cuts and servers (sita:cuts=1/10,servers=30/30/40) or groups (sita:groups=4)"
	switch {
	case p.Has("groups"):
		if p.Has("c") || p.Has("cut") || p.Has("cuts") || p.Has("servers") {
			return nil, fmt.Errorf("sita: groups=G sets the cutoffs and servers itself, drop the other parameters; %s", forms)
		}
		g, err := p.Int("groups", 0)
		if err != nil {
			return nil, fmt.Errorf("sita: %w (the number of groups, 2..K)", err)
		}
		if g < 2 {
			return nil, fmt.Errorf("sita: groups=%d is invalid: need at least 2 groups (1 group is rnd); e.g. sita:groups=2", g)
		}
		return SITA{Groups: g}, nil
	case p.Has("cuts") || p.Has("servers"):
		if p.Has("c") || p.Has("cut") {
			return nil, fmt.Errorf("sita: cuts and servers replace c and cut, drop c and cut; %s", forms)
		}
		if !p.Has("cuts") || !p.Has("servers") {
			return nil, fmt.Errorf("sita: cuts and servers go together; e.g. sita:cuts=1/10,servers=30/30/40")
		}
		cuts, err := listParam(p, "cuts", "the size cutoffs, increasing, e.g. cuts=1/10")
		if err != nil {
			return nil, err
		}
		counts, err := listParam(p, "servers", "the servers of each group, e.g. servers=30/30/40")
		if err != nil {
			return nil, err
		}
		s := SITA{Cuts: cuts}
		for i, n := range counts {
			if n != math.Trunc(n) || n < 1 || n > maxServers {
				return nil, fmt.Errorf("sita: servers=%s: group %d has %v servers: need a whole number in 1..%d", listText(counts), i+1, n, maxServers)
			}
			s.Servers = append(s.Servers, int(n))
		}
		return s, s.check()
	case !p.Has("c"):
		return nil, fmt.Errorf("sita: missing parameter c; %s", forms)
	}
	c, err := p.Int("c", 0)
	if err != nil {
		return nil, fmt.Errorf("sita: %w (the number of servers for short jobs, in 1..K-1)", err)
	}
	cut := p["cut"]
	if p.Has("cut") && cut <= 0 {
		return nil, fmt.Errorf("sita: cut=%v is invalid: need cut > 0", cut)
	}
	return SITA{C: c, Cut: cut}, nil
}

// listParam is the numbers given to key: one, or several separated by '/'.
func listParam(p Params, key, what string) ([]float64, error) {
	if xs := p.List(key); xs != nil {
		return xs, nil
	}
	if x, ok := p[key]; ok {
		return []float64{x}, nil
	}
	return nil, fmt.Errorf("sita: %s=%s is invalid: need %s", key, p.Word(key), what)
}

// check is what SITA's parameters must satisfy whatever K.
func (p SITA) check() error {
	switch {
	case p.Groups != 0 && (p.C != 0 || p.Cut != 0 || p.Cuts != nil || p.Servers != nil),
		p.Cuts != nil && (p.C != 0 || p.Cut != 0):
		return fmt.Errorf("sita %v mixes its forms: give C (and Cut), Cuts and Servers, or Groups", p)
	case p.Groups != 0 && p.Groups < 2:
		return fmt.Errorf("sita groups=%d is invalid: need at least 2 groups (1 group is rnd); e.g. sita:groups=2", p.Groups)
	case p.Groups != 0:
		return nil
	case p.Cuts == nil && p.Servers == nil:
		if !(p.Cut >= 0) { // NaN too
			return fmt.Errorf("sita cut=%v is invalid: need cut > 0 (or no cut with two-point sizes)", p.Cut)
		}
		return nil
	case len(p.Cuts) == 0:
		return fmt.Errorf("sita: no cutoffs given: need at least one, e.g. sita:cuts=10,servers=20/80")
	case len(p.Servers) != len(p.Cuts)+1:
		cutoffs := fmt.Sprintf("%d cutoffs make", len(p.Cuts))
		if len(p.Cuts) == 1 {
			cutoffs = "1 cutoff makes"
		}
		return fmt.Errorf("sita: %s %d groups, but servers lists %d: give one server count per group, e.g. servers=%s",
			cutoffs, len(p.Cuts)+1, len(p.Servers), strings.TrimSuffix(strings.Repeat("10/", len(p.Cuts)+1), "/"))
	}
	for i, x := range p.Cuts {
		switch {
		case !(x > 0) || math.IsInf(x, 1):
			return fmt.Errorf("sita cuts=%s is invalid: cutoff no. %d is %v; need finite cutoffs > 0, e.g. sita:cuts=1/10,servers=30/30/40", listText(p.Cuts), i+1, x)
		case i > 0 && !(x > p.Cuts[i-1]):
			return fmt.Errorf("sita cuts=%s is invalid: cutoff no. %d (%v) is not larger than the one before it (%v); list the cutoffs in increasing order, e.g. sita:cuts=1/10,servers=30/30/40", listText(p.Cuts), i+1, x, p.Cuts[i-1])
		}
	}
	for i, n := range p.Servers {
		if n < 1 {
			return fmt.Errorf("sita servers=%s is invalid: group %d has %d servers; need at least 1 server a group", intsText(p.Servers), i+1, n)
		}
	}
	return nil
}

func (p SITA) String() string {
	switch {
	case p.Groups != 0:
		return fmt.Sprintf("sita:groups=%d", p.Groups)
	case p.Cuts != nil || p.Servers != nil:
		return fmt.Sprintf("sita:cuts=%s,servers=%s", listText(p.Cuts), intsText(p.Servers))
	case p.Cut > 0:
		return fmt.Sprintf("sita:cut=%s,c=%d", fmtNum(p.Cut), p.C)
	}
	return fmt.Sprintf("sita:c=%d", p.C)
}

// describe: no server state; its size classes are its groups, which split
// the jobs; c is its first group's servers. Labels: SITA-c (which notebooks
// parse), SITA-5 (cut 2), SITA-C1/C2/C3 (cuts X1/X2), SITA-E (G groups).
func (p SITA) describe(c *Config) Description {
	d := Description{Label: fmt.Sprintf("SITA-%d", p.C), Reads: NoState, C: p.C, builtinFacts: builtinFacts{
		advice: func() string { return p.loadAdvice(c) }}}
	switch {
	case p.Groups != 0:
		d.Label = fmt.Sprintf("SITA-E (%d groups)", p.Groups)
	case p.Cuts != nil || p.Servers != nil:
		d.Label = fmt.Sprintf("SITA-%s (cuts %s)", intsText(p.Servers), listText(p.Cuts))
	case p.Cut > 0:
		d.Label = fmt.Sprintf("SITA-%d (cut %s)", p.C, fmtNum(p.Cut))
	}
	switch k := c.Servers; {
	case p.Groups != 0 && k > 0: // servers(k)[0], without the G counts
		d.C = k/p.Groups + btoi(k%p.Groups > 0)
	case p.Servers != nil:
		d.C = p.Servers[0]
	}
	if c.sizes() == nil {
		return d
	}
	d.classes = func() []SizeClass { g, err := p.groupsOf(c.Servers, c.sizes()); return g.classes(err) }
	d.split = func() []classSplit { g, err := p.groupsOf(c.Servers, c.sizes()); return p.split(c, g, err) }
	return d
}

// listText is a list as a spec value, "1/10".
func listText(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmtNum(x)
	}
	return strings.Join(out, "/")
}

func intsText(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, "/")
}

func (p SITA) validate(c *Config) error { return p.validateFor(c.Servers, c.sizes()) }

func (p SITA) start(*View) Policy { return p }

// validateFor checks p against K servers and the size law.
func (p SITA) validateFor(k int, sizes SizeLaw) error {
	if k < 2 {
		return fmt.Errorf("sita needs at least 2 servers (short jobs on c of them, long jobs on the rest), got K=%d; use -servers 2 or more", k)
	}
	if err := p.check(); err != nil {
		return err
	}
	switch {
	case p.Groups > k:
		return fmt.Errorf("sita groups=%d is invalid for K=%d servers: need at most one group a server, groups <= %d; e.g. sita:groups=%d (SITA-E)", p.Groups, k, k, k)
	case p.Groups != 0: // its cutoffs below
	case p.Servers != nil:
		if n := sum(p.Servers); n != k {
			return fmt.Errorf("sita servers=%s is invalid: the groups have %d servers in all, K=%d; need server counts summing to K", intsText(p.Servers), n, k)
		}
	case p.C < 1 || p.C > k-1:
		return fmt.Errorf("sita c=%d is invalid: need 1 <= c <= K-1 = %d so that both short and long jobs have a server; pick c in 1..%d", p.C, k-1, k-1)
	case p.Cut == 0:
		if _, ok := sizes.(TwoPoint); !ok && sizes != nil {
			return fmt.Errorf("sita without cut needs two-point sizes, not %s; give a size cut-off, e.g. sita:cut=10,c=%d", sizes, p.C)
		}
	}
	if sizes == nil {
		return nil
	}
	_, err := p.groupsOf(k, sizes)
	return err
}

func sum(ns []int) int {
	out := 0
	for _, n := range ns {
		out += n
	}
	return out
}

// servers are the server counts of the groups at K servers, in order.
func (p SITA) servers(k int) []int {
	switch {
	case p.Groups != 0:
		out := make([]int, p.Groups)
		for g := range out {
			out[g] = k / p.Groups
			if g < k%p.Groups {
				out[g]++
			}
		}
		return out
	case p.Servers != nil:
		return p.Servers
	}
	return []int{p.C, k - p.C}
}

// sitaGroups is a SITA's groups under a configuration: group g takes the
// sizes in (cuts[g-1], cuts[g]] (cuts[-1] = 0, cuts[G-1] = +Inf) on
// servers from[g]..from[g+1]-1.
type sitaGroups struct {
	cuts []float64 // G-1 cutoffs
	from []int     // G+1 entries, from[G] = K
}

// groupsOf is p's groups at K servers with sizes of the given law: the
// one place that turns each form into cutoffs and servers. Without a cut
// a two-point law's short jobs are those of size x_m.
func (p SITA) groupsOf(k int, sizes SizeLaw) (sitaGroups, error) {
	counts := p.servers(k)
	g := sitaGroups{from: make([]int, len(counts)+1)}
	for i, n := range counts {
		g.from[i+1] = g.from[i] + n
	}
	switch {
	case p.Groups != 0:
		if _, _, _, ok := BelowCut(sizes, 0); !ok {
			return sitaGroups{}, fmt.Errorf("sita groups=%d needs a size law that knows its moments below a cutoff (a method BelowCut), not %v; give the cutoffs, e.g. sita:cuts=1/10,servers=%s", p.Groups, sizes, intsText(counts))
		}
		cuts, err := equalLoadCuts(sizes, counts)
		if err != nil {
			return sitaGroups{}, fmt.Errorf("sita groups=%d with sizes %s: %w", p.Groups, sizes, err)
		}
		g.cuts = cuts
	case p.Cuts != nil:
		g.cuts = p.Cuts
	case p.Cut > 0:
		g.cuts = []float64{p.Cut}
	default:
		tp, ok := sizes.(TwoPoint)
		if !ok {
			return sitaGroups{}, fmt.Errorf("sita without cut needs two-point sizes, not %s", sizes)
		}
		g.cuts = []float64{tp.Xm} // x > x_m: the long size x_M
	}
	return g, nil
}

// equalLoadCuts are the cutoffs at which groups of the given server counts
// carry work in proportion to their servers (theory.EqualLoadCuts), or an
// error naming the law's atom that prevents it; kept in equalLoadMemo.
func equalLoadCuts(sizes SizeLaw, counts []int) ([]float64, error) {
	key, keep := equalLoadKey{k: sum(counts), groups: len(counts)}, false
	switch s := sizes.(type) {
	case Exponential, H2, Erlang, Pareto, TwoPoint, Deterministic:
		key.law, keep = s, true
	case Empirical:
		key.law, keep = s.tab, s.tab != nil // its values do not change (NewEmpirical)
	case SizeFile:
		key.law, keep = s.tab, s.tab != nil
	}
	if !keep {
		return solveEqualLoadCuts(sizes, counts)
	}
	equalLoadMemo.Lock()
	defer equalLoadMemo.Unlock()
	if cuts, ok := equalLoadMemo.cuts[key]; ok {
		return cuts, nil
	}
	cuts, err := solveEqualLoadCuts(sizes, counts)
	if err == nil {
		if len(equalLoadMemo.cuts) >= 16 {
			clear(equalLoadMemo.cuts)
		}
		equalLoadMemo.cuts[key] = cuts
	}
	return cuts, err
}

// equalLoadMemo: a configuration asks for its cutoffs many times (Validate,
// the load model, its classes, each replication), and at large K they are
// slow to find. Their users only read them.
var equalLoadMemo = struct {
	sync.Mutex
	cuts map[equalLoadKey][]float64
}{cuts: map[equalLoadKey][]float64{}}

type equalLoadKey struct {
	law       any // a comparable law, or an empirical law's table
	k, groups int
}

func solveEqualLoadCuts(sizes SizeLaw, counts []int) ([]float64, error) {
	k, mean := sum(counts), sizes.Mean()
	levels := make([]float64, len(counts)-1)
	servers := 0
	for g := range levels {
		servers += counts[g]
		levels[g] = float64(servers) / float64(k) * mean
	}
	cuts, err := theory.EqualLoadCuts(func(x float64) float64 { _, m1, _, _ := BelowCut(sizes, x); return m1 }, levels)
	var atom *theory.AtomError
	if errors.As(err, &atom) {
		return nil, fmt.Errorf("no cutoff gives each server the same load: servers 1..%d need the jobs that bring %.4g of the work, but the sizes at x = %s bring it from %.4g to %.4g at once (an atom of the law); equal-load cutoffs need a law without atoms there: %s",
			sum(counts[:atom.Group]), levels[atom.Group-1]/mean, fmtNum(atom.X), atom.Below/mean, atom.At/mean, atomAdvice(atom, mean, k))
	}
	return cuts, err
}

// atomAdvice is a split for a law with an atom where an equal-load cutoff
// should be: two groups, cut at the atom (or the size before it when it is
// the largest), servers in proportion to the work on each side.
func atomAdvice(e *theory.AtomError, mean float64, k int) string {
	cut, share := e.X, e.At/mean
	if share > 1-1e-9 { // nothing above the atom
		cut, share = e.Before, e.Below/mean
	}
	if cut == 0 {
		return "every job has the same size, which size intervals cannot split; use rnd or rr"
	}
	c := min(max(int(math.Round(share*float64(k))), 1), k-1)
	return fmt.Sprintf("give cutoffs between the law's sizes yourself, with servers in proportion to each group's work, e.g. sita:cuts=%s,servers=%d/%d", fmtNum(cut), c, k-c)
}

// Pick is SITA through a View; the run uses the equivalent sitaDispatcher.
func (p SITA) Pick(v *View, x float64) int {
	return p.dispatcher(v.K(), v.s.cfg.sizes(), v.Rand()).pick(0, x)
}

func (p SITA) newDispatcher(s *sim) dispatcher { return p.dispatcher(s.k, s.cfg.sizes(), s.rDispatch) }

func (p SITA) dispatcher(k int, sizes SizeLaw, r *Stream) *sitaDispatcher {
	g, _ := p.groupsOf(k, sizes) // Validate checked it
	return &sitaDispatcher{groups: g, r: r}
}

type sitaDispatcher struct {
	groups sitaGroups
	r      *Stream
}

func (d *sitaDispatcher) pick(_, x float64) int {
	lo, n := d.groups.of(x)
	return lo + d.r.IntN(n)
}

func (*sitaDispatcher) lean(*sim) leanPolicy { return leanSITA }

// of is the servers of the group of size x, lo .. lo+n-1.
func (g sitaGroups) of(x float64) (lo, n int) {
	i, _ := slices.BinarySearch(g.cuts, x) // cuts[i-1] < x <= cuts[i]
	return g.group(i)
}

// group is the servers of group i, lo .. lo+n-1 (a lean block knows a job's
// group without a search: its size class).
func (g sitaGroups) group(i int) (lo, n int) { return g.from[i], g.from[i+1] - g.from[i] }

// classes: one a group, named by groupName; none without groups (err).
func (g sitaGroups) classes(err error) []SizeClass {
	if err != nil {
		return nil
	}
	cls := make([]SizeClass, len(g.from)-1)
	for i := range cls {
		cls[i] = SizeClass{Name: groupName(i, len(cls)), Upper: math.Inf(1), From: g.from[i], To: g.from[i+1]}
		if i < len(g.cuts) {
			cls[i].Upper = g.cuts[i]
		}
	}
	return cls
}

// groupName names group i of n in tables: short and long jobs for two, as
// the course has it, else "group 1".."group G" (cutoffs would be long).
func groupName(i, n int) string {
	if n == 2 {
		return [2]string{"short", "long"}[i]
	}
	return fmt.Sprintf("group %d", i+1)
}

// split: SITA's classes of jobs, its groups g, each evenly to its group's
// servers, with the law's moments in its size interval (BelowCut); without
// a cut the two-point law's atoms; nil for a law without them.
func (p SITA) split(c *Config, g sitaGroups, err error) []classSplit {
	if err != nil {
		return nil
	}
	sizes := c.sizes()
	out := make([]classSplit, len(g.from)-1)
	if tp, isTP := sizes.(TwoPoint); isTP && p.Cut == 0 && p.C != 0 {
		out[0].ClassMoments = theory.ClassMoments{Prob: 1 - tp.P, M1: tp.Xm, M2: tp.Xm * tp.Xm}
		out[1].ClassMoments = theory.ClassMoments{Prob: tp.P, M1: tp.XM, M2: tp.XM * tp.XM}
	} else {
		// below(x) = (P(X <= x), E[X; X <= x], E[X^2; X <= x]): a group's
		// share and moments are the differences at its ends.
		below := func(i int) (pb, m1, m2 float64, ok bool) {
			switch {
			case i < 0:
				return 0, 0, 0, true
			case i == len(g.cuts):
				return 1, sizes.Mean(), sizes.SecondMoment(), true
			}
			return BelowCut(sizes, g.cuts[i])
		}
		p0, a0, b0, _ := below(-1)
		for i := range out {
			p1, a1, b1, ok := below(i)
			if !ok {
				return nil
			}
			if prob := p1 - p0; prob > 0 {
				out[i].ClassMoments = theory.ClassMoments{Prob: prob, M1: (a1 - a0) / prob, M2: (b1 - b0) / prob}
			}
			p0, a0, b0 = p1, a1, b1
		}
	}
	for i := range out {
		out[i].from, out[i].to = g.from[i], g.from[i+1]
		out[i].lo, out[i].hi = 0, math.Inf(1)
		if i > 0 {
			out[i].lo = g.cuts[i-1]
		}
		if i < len(g.cuts) {
			out[i].hi = g.cuts[i]
		}
	}
	return out
}

// loadAdvice is added to the error for an unstable group: with two-point
// sizes and one cut the c that gives both groups the same load, c_E = K
// (1-p) x_m / E[X]; with several groups the equal-load cutoffs.
func (p SITA) loadAdvice(c *Config) string {
	if tp, ok := c.sizes().(TwoPoint); ok && p.Groups == 0 && p.Cuts == nil {
		cE := float64(c.Servers) * (1 - tp.P) * tp.Xm / tp.Mean()
		return fmt.Sprintf("choose c near the equal-load c=%d (K (1-p) x_m / E[X]), ", int(math.Round(cE)))
	}
	if g := len(p.servers(c.Servers)); p.Groups == 0 && (SITA{Groups: g}).validateFor(c.Servers, c.sizes()) == nil {
		return fmt.Sprintf("use the cutoffs of equal loads, sita:groups=%d, ", g)
	}
	return ""
}

// theory: each server of group g is an M/G/1 queue of rate lambda p_g / n_g
// at its own speed, fed by its class's conditional moments (splitTheory);
// M/D/1 per group for two-point sizes without a cut.
func (p SITA) theory(c Config) (Reference, bool) {
	fcfs := "M/G/1 per group (conditional moments)"
	if _, tp := c.Sizes.(TwoPoint); tp && p.Cut == 0 && p.C != 0 {
		fcfs = "M/D/1 per group"
	}
	return splitTheory(c, fcfs, "M/G/1-PS per group (insensitive)")
}
