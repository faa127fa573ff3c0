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
//     SITA-E (Harchol-Balter, Crovella and Murta 1999) when G = K. Where
//     the law jumps over that level (an empirical law, a size file, a
//     trace), x_g is the size of the law nearest it: a group's share of
//     the work then misses n_g/K by at most half the work of the sizes at
//     its two cutoffs (Config.SizeClasses and the run's summary give
//     them), and a size with more work than a group next to it needs is
//     refused.
//
// With Poisson arrivals each server is an M/G/1 queue fed by one group's sizes.
type SITA struct {
	C       int
	Cut     float64
	Cuts    []float64
	Servers []int
	Groups  int

	quiet bool // a fix being checked (accepts): its errors offer no fixes of their own
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

// check is what SITA's parameters must satisfy whatever K; its fixes are
// the forms' examples (checkFor).
func (p SITA) check() error { return p.checkFor(nil) }

// checkFor is check with fixes that configuration c accepts (c nil: the
// forms' examples, at parsing).
func (p SITA) checkFor(c *Config) error {
	const example = "sita:cuts=1/10,servers=30/30/40"
	groups := len(p.Cuts) + 1
	switch {
	case p.Groups != 0 && (p.C != 0 || p.Cut != 0 || p.Cuts != nil || p.Servers != nil),
		p.Cuts != nil && (p.C != 0 || p.Cut != 0):
		return fmt.Errorf("sita with c=%d, cut=%v, cuts=%s, servers=%s and groups=%d mixes its forms: give C (and Cut), Cuts and Servers, or Groups", p.C, p.Cut, listText(p.Cuts), intsText(p.Servers), p.Groups)
	case p.Groups != 0 && p.Groups < 2:
		return fmt.Errorf("sita groups=%d is invalid: need at least 2 groups (1 group is no size interval)%s", p.Groups, eg(p.fix(c, "sita:groups=2", SITA{Groups: 2})))
	case p.Groups != 0:
		return nil
	case p.Cuts == nil && p.Servers == nil:
		if !(p.Cut >= 0) { // NaN too
			return fmt.Errorf("sita cut=%v is invalid: need cut > 0 (or no cut with two-point sizes)%s", p.Cut, eg(p.fix(c, "sita:cut=10,c=20", equalLoadFix(c, SITA{C: p.C}))))
		}
		return nil
	case len(p.Cuts) == 0:
		return fmt.Errorf("sita: no cutoffs given: need at least one%s", eg(p.fix(c, "sita:cuts=10,servers=20/80", equalLoadFix(c, SITA{Groups: max(2, len(p.Servers))}), SITA{Groups: 2})))
	case len(p.Servers) != groups:
		cutoffs := fmt.Sprintf("%d cutoffs make", len(p.Cuts))
		if len(p.Cuts) == 1 {
			cutoffs = "1 cutoff makes"
		}
		form := "servers=" + strings.TrimSuffix(strings.Repeat("10/", groups), "/")
		return fmt.Errorf("sita: %s %d groups, but servers lists %d: give one server count per group%s",
			cutoffs, groups, len(p.Servers), eg(p.fix(c, form, p.serversFixes(c)...)))
	}
	for i, x := range p.Cuts {
		switch {
		case !(x > 0) || math.IsInf(x, 1):
			return fmt.Errorf("sita cuts=%s is invalid: cutoff no. %d is %v; need finite cutoffs > 0%s", listText(p.Cuts), i+1, x, eg(p.fix(c, example, equalLoadFix(c, p))))
		case i > 0 && !(x > p.Cuts[i-1]):
			sorted := slices.Sorted(slices.Values(p.Cuts))
			return fmt.Errorf("sita cuts=%s is invalid: cutoff no. %d (%v) is not larger than the one before it (%v); list the cutoffs in increasing order%s", listText(p.Cuts), i+1, x, p.Cuts[i-1],
				eg(p.fix(c, example, SITA{Cuts: sorted, Servers: p.Servers}, equalLoadFix(c, p))))
		}
	}
	for i, n := range p.Servers {
		if n < 1 {
			return fmt.Errorf("sita servers=%s is invalid: group %d has %d servers; need at least 1 server a group%s", intsText(p.Servers), i+1, n, eg(p.fix(c, "", p.serversFixes(c)...)))
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
	if counts := p.servers(c.Servers); c.Servers >= 2 && slices.Min(counts) >= 1 {
		d.nClasses = len(counts)
	}
	d.split = func() []classSplit { g, err := p.groupsOf(c.Servers, c.sizes()); return p.split(c, g, err) }
	if p.Groups != 0 {
		d.note = func() string { return p.sharesNote(c) }
	}
	return d
}

// sharesNote says what shares of the work SITA-E's groups get when its
// cutoffs are sizes of the law (NearestLoadCuts) and the shares miss
// their servers' n_g/K: each share, or for many groups their range as a
// multiple of n_g/K (the servers' loads over the offered load at equal
// speeds); "" when every share is n_g/K to 1e-9.
func (p SITA) sharesNote(c *Config) string {
	cls := c.SizeClasses()
	if len(cls) < 2 || math.IsNaN(cls[0].Work) {
		return ""
	}
	k := float64(c.Servers)
	lo, hi, off := 0, 0, false
	ratio := func(cl SizeClass) float64 { return cl.Work / (float64(cl.To-cl.From) / k) }
	var shares, servers, cuts []string
	for i, cl := range cls {
		r := ratio(cl)
		off = off || math.Abs(r-1) > 1e-9
		if r < ratio(cls[lo]) {
			lo = i
		}
		if r > ratio(cls[hi]) {
			hi = i
		}
		shares = append(shares, fmt.Sprintf("%.4g", cl.Work))
		servers = append(servers, fmt.Sprintf("%.4g", float64(cl.To-cl.From)/k))
		if i < len(cls)-1 {
			cuts = append(cuts, fmtNum(cl.Upper))
		}
	}
	switch {
	case !off:
		return ""
	case len(cls) <= 8:
		return fmt.Sprintf("SITA-E cutoffs %s are sizes of the law: the groups' shares of the work are %s, for servers' shares %s",
			strings.Join(cuts, "/"), strings.Join(shares, "/"), strings.Join(servers, "/"))
	}
	return fmt.Sprintf("SITA-E cutoffs are sizes of the law: a group's share of the work is %.4g (group %d) to %.4g (group %d) times its servers' share n_g/K",
		ratio(cls[lo]), lo+1, ratio(cls[hi]), hi+1)
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

func (p SITA) start(*View) Policy { return p }

// validate checks p against K servers and the size law; every fix it
// offers is a configuration that c, with it, accepts (fix).
func (p SITA) validate(c *Config) error {
	k, sizes := c.Servers, c.sizes()
	if k < 2 {
		need := max(2, p.Groups, p.C+1, sum(p.Servers))
		return fmt.Errorf("sita needs at least 2 servers (short jobs on c of them, long jobs on the rest), got K=%d%s", k, eg(p.serversFix(c, need)))
	}
	if err := p.checkFor(c); err != nil {
		return err
	}
	switch {
	case p.Groups > k:
		var fewer []Policy
		for g := k; g >= max(2, k-11); g-- { // the most groups c accepts, within 12 tries
			fewer = append(fewer, SITA{Groups: g}, equalLoadFix(c, SITA{Groups: g}))
		}
		return fmt.Errorf("sita groups=%d is invalid for K=%d servers: need at most one group a server, groups <= %d%s", p.Groups, k, k, eg(p.fix(c, "", fewer...)))
	case p.Groups != 0: // its cutoffs below
	case p.Servers != nil:
		if n := sum(p.Servers); n != k {
			return fmt.Errorf("sita servers=%s is invalid: the groups have %d servers in all, K=%d; need server counts summing to K%s", intsText(p.Servers), n, k, eg(p.fix(c, "", p.serversFixes(c)...)))
		}
	case p.C < 1 || p.C > k-1:
		inRange := min(max(p.C, 1), k-1)
		_, cands := p.equalC(c)
		fix := p.fix(c, "", append(cands, SITA{C: inRange, Cut: p.Cut}, equalLoadFix(c, SITA{C: inRange}))...)
		if fix != "" {
			fix = fmt.Sprintf("; pick c in 1..%d, e.g. %s", k-1, fix)
		}
		return fmt.Errorf("sita c=%d is invalid: need 1 <= c <= K-1 = %d so that both short and long jobs have a server%s", p.C, k-1, fix)
	case p.Cut == 0:
		if _, ok := sizes.(TwoPoint); !ok && sizes != nil {
			return fmt.Errorf("sita without cut needs two-point sizes, not %s; give a size cut-off%s", c.sizesText(), eg(p.fix(c, "", equalLoadFix(c, SITA{C: p.C}))))
		}
	}
	if sizes == nil {
		return nil
	}
	counts := p.servers(k)
	if _, _, _, ok := BelowCut(sizes, 0); p.Groups != 0 && !ok {
		return fmt.Errorf("sita groups=%d needs a size law that knows its moments below a cutoff (a method BelowCut), not %s; give the cutoffs%s", p.Groups, c.sizesText(), eg(p.fix(c, "", p.guessCuts(c, counts))))
	}
	_, err := p.groupsOf(k, sizes)
	var atom *theory.AtomError
	if errors.As(err, &atom) {
		return p.atomError(c, atom, counts)
	}
	if err != nil {
		return fmt.Errorf("%s with %s: %w", p, c.sizesText(), err)
	}
	return nil
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
// a two-point law's short jobs are those of size x_m. Its errors do not
// name the law (validate does, briefly).
func (p SITA) groupsOf(k int, sizes SizeLaw) (sitaGroups, error) {
	counts := p.servers(k)
	g := sitaGroups{from: make([]int, len(counts)+1)}
	for i, n := range counts {
		g.from[i+1] = g.from[i] + n
	}
	switch {
	case p.Groups != 0:
		cuts, err := equalLoadCuts(sizes, counts)
		if err != nil {
			return sitaGroups{}, err
		}
		g.cuts = cuts
	case p.Cuts != nil:
		g.cuts = p.Cuts
	case p.Cut > 0:
		g.cuts = []float64{p.Cut}
	default:
		tp, ok := sizes.(TwoPoint)
		if !ok {
			return sitaGroups{}, errors.New("sita without cut needs two-point sizes")
		}
		g.cuts = []float64{tp.Xm} // x > x_m: the long size x_M
	}
	return g, nil
}

// equalLoadCuts are the cutoffs at which groups of the given server counts
// carry work in proportion to their servers (shareCuts); kept in
// equalLoadMemo.
func equalLoadCuts(sizes SizeLaw, counts []int) ([]float64, error) {
	weights := make([]float64, len(counts))
	for i, n := range counts {
		weights[i] = float64(n)
	}
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
		return shareCuts(sizes, weights)
	}
	equalLoadMemo.Lock()
	defer equalLoadMemo.Unlock()
	if cuts, ok := equalLoadMemo.cuts[key]; ok {
		return cuts, nil
	}
	cuts, err := shareCuts(sizes, weights)
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

// shareCuts are the cutoffs at which the groups' shares of the work are in
// proportion to weights: where the law's partial moment meets the levels
// (theory.EqualLoadCuts), else, where it jumps over them (an empirical law,
// a request log), at the sizes of the law nearest them
// (theory.NearestLoadCuts). The error for an atom that holds more work
// than a group needs is a *theory.AtomError.
func shareCuts(sizes SizeLaw, weights []float64) ([]float64, error) {
	if _, _, _, ok := BelowCut(sizes, 0); !ok {
		return nil, errors.New("the size law does not know its moments below a cutoff (BelowCut)")
	}
	total, mean := 0.0, sizes.Mean()
	for _, w := range weights {
		total += w
	}
	levels := make([]float64, len(weights)-1)
	upTo := 0.0
	for g := range levels {
		upTo += weights[g]
		levels[g] = upTo / total * mean
	}
	partial := func(x float64) float64 { _, m1, _, _ := BelowCut(sizes, x); return m1 }
	cuts, err := theory.EqualLoadCuts(partial, levels)
	if _, atom := errors.AsType[*theory.AtomError](err); atom {
		cuts, _, err = theory.NearestLoadCuts(partial, levels, mean)
	}
	return cuts, err
}

// groupWork are the shares of the work, E[X; x_{g-1} < X <= x_g] / E[X],
// of the size intervals up to the given upper bounds (the last +Inf); false
// when the law does not know BelowCut.
func groupWork(sizes SizeLaw, uppers []float64) ([]float64, bool) {
	mean := sizes.Mean()
	out := make([]float64, len(uppers))
	below := 0.0
	for g, x := range uppers {
		upTo := mean
		if !math.IsInf(x, 1) {
			_, m1, _, ok := BelowCut(sizes, x)
			if !ok {
				return nil, false
			}
			upTo = m1
		}
		out[g], below = (upTo-below)/mean, upTo
	}
	return out, true
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
