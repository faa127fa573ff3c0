package theory

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// md1Wait is the M/D/1 mean wait written out independently: rho x / (2 (1 - rho)).
func md1Wait(rate, x float64) float64 {
	rho := rate * x
	return rho * x / (2 * (1 - rho))
}

func TestSITATwoPoint(t *testing.T) {
	const K, xm, xM, p = 100, 1.0, 1000.0, 0.001
	ex := (1-p)*xm + p*xM // 1.999
	for _, rho := range []float64{0.5, 0.8, 0.95} {
		lambda := rho * K / ex
		for c := 1; c < K; c++ {
			if lambda*(1-p)*xm >= float64(c) || lambda*p*xM >= float64(K-c) {
				continue // unstable: covered in TestSITAErrors
			}
			r, err := SITATwoPoint(lambda, K, c, xm, xM, p)
			if err != nil {
				t.Fatalf("rho=%g c=%d: %v", rho, c, err)
			}
			ws := md1Wait(lambda*(1-p)/float64(c), xm)
			wl := md1Wait(lambda*p/float64(K-c), xM)
			w := (1-p)*ws + p*wl
			if !near(r.Short.Wait, ws, 1e-12) || !near(r.Long.Wait, wl, 1e-12) || !near(r.Overall.Wait, w, 1e-12) {
				t.Errorf("rho=%g c=%d: got short %g long %g overall %g, want %g %g %g", rho, c, r.Short.Wait, r.Long.Wait, r.Overall.Wait, ws, wl, w)
			}
			if !near(r.Overall.Response, w+ex, 1e-12) || !near(r.Long.Response, wl+xM, 1e-12) {
				t.Errorf("rho=%g c=%d: responses %+v", rho, c, r)
			}
		}
	}
}

func TestSITAEqualClassesIsRandom(t *testing.T) {
	// Two classes with the same law split in proportion to the servers give
	// every server rate lambda/K: SITA then equals random dispatching.
	h, _ := HyperExpBalanced(1, 10)
	cls := func(p float64) ClassMoments { return ClassMoments{Prob: p, M1: h.Mean(), M2: h.SecondMoment()} }
	s, err := SITAClasses(8, 10, 3, cls(0.3), cls(0.7))
	if err != nil {
		t.Fatal(err)
	}
	speeds := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	r, err := RandomDispatch(8, h, speeds)
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.Overall.Wait, r.Wait, 1e-12) || !near(s.Short.Wait, s.Long.Wait, 1e-12) {
		t.Errorf("SITA %+v vs RND %+v", s.Overall, r.Delay)
	}
}

func TestSITAOptimalC(t *testing.T) {
	const K, xm, xM, p = 100, 1.0, 1000.0, 0.001
	for _, rho := range []float64{0.3, 0.7, 0.9} {
		lambda := rho * K / ((1-p)*xm + p*xM)
		best, err := SITAOptimalC(lambda, K, xm, xM, p)
		if err != nil {
			t.Fatal(err)
		}
		// Independent exhaustive search with the M/D/1 formula.
		wantC, wantW := 0, math.Inf(1)
		for c := 1; c < K; c++ {
			rs, rl := lambda*(1-p)*xm/float64(c), lambda*p*xM/float64(K-c)
			if rs >= 1 || rl >= 1 {
				continue
			}
			w := (1-p)*md1Wait(lambda*(1-p)/float64(c), xm) + p*md1Wait(lambda*p/float64(K-c), xM)
			if w < wantW {
				wantC, wantW = c, w
			}
		}
		if best.C != wantC || !near(best.Overall.Wait, wantW, 1e-12) {
			t.Errorf("rho=%g: optimal c=%d W=%g, want c=%d W=%g", rho, best.C, best.Overall.Wait, wantC, wantW)
		}
	}
}

func TestSITACuts(t *testing.T) {
	// Handout: K=100, x_m=1, x_M=1000: c* = 100/1001.
	cs, err := HandoutCStar(100, 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !near(cs, 100.0/1001, 1e-12) || !near(1/cs, 1000/(100-cs), 1e-12) {
		t.Errorf("c* = %g, want 100/1001 solving x_m/c = x_M/(K-c)", cs)
	}
	// Equal-load c: both groups have the same load at c_E for any lambda.
	const K, xm, xM, p = 100, 1.0, 1000.0, 0.004
	ce, err := SITAEqualLoadC(K, xm, xM, p)
	if err != nil {
		t.Fatal(err)
	}
	lambda := 0.7 * K / ((1-p)*xm + p*xM)
	if rs, rl := lambda*(1-p)*xm/ce, lambda*p*xM/(K-ce); !near(rs, rl, 1e-12) || !near(rs, 0.7, 1e-12) {
		t.Errorf("c_E=%g: loads %g and %g, want both 0.7", ce, rs, rl)
	}
	if !near(ce, 100*0.996/4.996, 1e-12) {
		t.Errorf("c_E=%g, want %g", ce, 100*0.996/4.996)
	}
}

func TestSITAErrors(t *testing.T) {
	const K, xm, xM, p = 100, 1.0, 1000.0, 0.001
	lambda := 0.9 * K / ((1-p)*xm + p*xM)
	_, err := SITATwoPoint(lambda, K, 0, xm, xM, p)
	wantErr(t, err, "c=0", "1 <= c <= 99")
	_, err = SITATwoPoint(lambda, K, K, xm, xM, p)
	wantErr(t, err, "c=100", "1 <= c <= 99")
	// Short offered load lambda*(1-p)*x_m = 44.97: c must exceed 44.
	_, err = SITATwoPoint(lambda, K, 40, xm, xM, p)
	wantErr(t, err, "short-job group", "choose c in 45..")
	// Long offered load 45.02: K - c must exceed 45, so c <= 54.
	_, err = SITATwoPoint(lambda, K, 60, xm, xM, p)
	wantErr(t, err, "long-job group", "45..54")
	_, err = SITAOptimalC(2*K/((1-p)*xm+p*xM), K, xm, xM, p)
	wantErr(t, err, "no SITA cut", "lower the arrival rate")
	_, err = SITATwoPoint(lambda, 1, 1, xm, xM, p)
	wantErr(t, err, "K=1", "K >= 2")
	_, err = SITATwoPoint(lambda, K, 50, 10, 1, p)
	wantErr(t, err, "x_M=1", "x_M > x_m")
	_, err = SITATwoPoint(lambda, K, 50, xm, xM, 0)
	wantErr(t, err, "p=0", "0 < p < 1")
	_, err = SITAClasses(1, 10, 5, ClassMoments{0.5, 1, 1}, ClassMoments{0.6, 2, 4})
	wantErr(t, err, "sum to 1.1")
	_, err = SITAClasses(1, 10, 5, ClassMoments{0.5, 1, 0.5}, ClassMoments{0.5, 2, 4})
	wantErr(t, err, "E[X^2]=0.5", "short class")
	_, err = HandoutCStar(100, 0, 1000)
	wantErr(t, err, "x_m=0")
	_, err = SITAEqualLoadC(1, xm, xM, p)
	wantErr(t, err, "K=1")
}

// EqualLoadCuts against closed forms: the uniform law on [0, 1] has
// E[X; X <= x] = x^2/2, so the level q/2 is reached at x = sqrt(q); a law
// of atoms 1 and 3 with probability 1/2 each (E[X; X <= x] = 0, 1/2, 2)
// reaches 1/2 at 1 and jumps over 1 at 3, where the error names it, with
// the size before it.
func TestEqualLoadCuts(t *testing.T) {
	uniform := func(x float64) float64 { return math.Min(x, 1) * math.Min(x, 1) / 2 }
	cuts, err := EqualLoadCuts(uniform, []float64{0.1, 0.25, 0.45})
	for i, q := range []float64{0.2, 0.5, 0.9} {
		if err != nil || math.Abs(cuts[i]-math.Sqrt(q)) > 1e-15 {
			t.Errorf("uniform: cutoffs %v, %v; want sqrt(%v) = %v", cuts, err, q, math.Sqrt(q))
			break
		}
	}
	atoms := func(x float64) float64 {
		switch {
		case x >= 3:
			return 2
		case x >= 1:
			return 0.5
		}
		return 0
	}
	for _, level := range []float64{0.5, 0.5 * (1 + 1e-14), 0.5 * (1 - 1e-14)} { // met, or but for rounding
		if cuts, err := EqualLoadCuts(atoms, []float64{level}); err != nil || cuts[0] != 1 {
			t.Errorf("atoms at level %v: %v, %v; want the cutoff 1", level, cuts, err)
		}
	}
	_, err = EqualLoadCuts(atoms, []float64{1})
	var e *AtomError
	if !errors.As(err, &e) || e.X != 3 || e.Before != 1 || e.Below != 0.5 || e.At != 2 || e.Group != 1 {
		t.Errorf("a level inside the atom at 3: %v (%+v); want an AtomError at 3, before it 1", err, e)
	}
	if _, err := EqualLoadCuts(uniform, []float64{0.3, 0.2}); err == nil {
		t.Error("decreasing levels: no error")
	}
}

// NearestLoadCuts against exhaustive search: on laws of 3 to 9 atoms of
// random sizes and weights, with 2 to 5 groups of equal shares, it must
// refuse exactly when a level falls strictly inside the jump of an atom
// whose work exceeds a neighbouring group's share, and otherwise return
// the increasing cutoffs among the atoms (the last one excluded, so that
// every group keeps a size) of least total distance to the levels, found
// here by trying every subset.
func TestNearestLoadCuts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	refused, solved := 0, 0
	for trial := range 3000 {
		n, groups := 3+r.IntN(7), 2+r.IntN(4)
		xs, ws := make([]float64, n), make([]float64, n)
		x, total := 0.0, 0.0
		for i := range xs {
			x += 0.1 + r.Float64()
			xs[i], ws[i] = x, x*(0.05+r.Float64()) // an atom's work: its size times its probability
			total += ws[i]
		}
		cum := func(i int) float64 { // E[X; X <= xs[i]], summed in order
			s := 0.0
			for _, w := range ws[:i+1] {
				s += w
			}
			return s
		}
		partial := func(v float64) float64 {
			s := 0.0
			for i, xi := range xs {
				if xi <= v {
					s += ws[i]
				}
			}
			return s
		}
		levels := make([]float64, groups-1)
		for g := range levels {
			levels[g] = float64(g+1) / float64(groups) * total
		}
		share := total / float64(groups)
		wantRefusal := false
		for _, level := range levels {
			for i := range xs {
				if below := cum(i) - ws[i]; below < level && cum(i) > level*(1+1e-9) && ws[i] > share*(1+1e-9) {
					wantRefusal = true
				}
			}
		}
		cuts, reached, err := NearestLoadCuts(partial, levels, total)
		var atom *AtomError
		switch {
		case wantRefusal && !errors.As(err, &atom):
			t.Fatalf("trial %d: %v, %v; want an AtomError (sizes %v, works %v, levels %v)", trial, cuts, err, xs, ws, levels)
		case wantRefusal:
			refused++
			if atom.At-atom.Below <= atom.Need || atom.Need > share*(1+1e-9) {
				t.Errorf("trial %d: %+v: the atom's work does not exceed Need, or Need is not a group's share %v", trial, atom, share)
			}
			continue
		case err != nil:
			t.Fatalf("trial %d: %v; want cutoffs (sizes %v, works %v, levels %v)", trial, err, xs, ws, levels)
		}
		solved++
		best, bestCost := []int(nil), math.Inf(1)
		for mask := range 1 << (n - 1) { // subsets of the atoms but the last
			if bits.OnesCount(uint(mask)) != groups-1 {
				continue
			}
			var pick []int
			cost := 0.0
			for i := range n - 1 {
				if mask&(1<<i) != 0 {
					cost += math.Abs(cum(i) - levels[len(pick)])
					pick = append(pick, i)
				}
			}
			if cost < bestCost-1e-12 {
				best, bestCost = pick, cost
			}
		}
		for g, i := range best {
			if cuts[g] != xs[i] || math.Abs(reached[g]-cum(i)) > 1e-12*total {
				t.Fatalf("trial %d: cutoffs %v reaching %v; exhaustive search: sizes %v (cost %v), of %v with works %v, levels %v",
					trial, cuts, reached, best, bestCost, xs, ws, levels)
			}
		}
	}
	if refused < 100 || solved < 100 {
		t.Errorf("%d laws refused, %d solved: want both cases well covered", refused, solved)
	}
}
