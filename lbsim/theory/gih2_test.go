package theory

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// qbdEKH2 is an independent reference for the E_K/H2/1 queue: the Markov
// chain of (jobs n, arrival phase j, service phase i) is a QBD with levels
// n and 2K phases (j, i) for n >= 1 (K at n = 0). Its rate matrix R, the
// minimal solution of A0 + R A1 + R^2 A2 = 0, comes from G of logarithmic
// reduction (Latouche and Ramaswami, J. Appl. Prob. 30 (1993)),
// R = A0 (-(A1 + A0 G))^{-1}; pi_{n+1} = pi_n R for n >= 1, the boundary
// (pi_0, pi_1) solves the equations of levels 0 and 1 with
// pi_0 1 + pi_1 (I - R)^{-1} 1 = 1. Then E[N] = pi_1 (I - R)^{-2} 1,
// E[Lq] = E[N] - P(busy) and E[W] = E[Lq] lambda^{-1} (Little).
func qbdEKH2(t *testing.T, K int, lambda float64, p1, m1, m2 float64) float64 {
	t.Helper()
	n := 2 * K
	idx := func(j, i int) int { return 2*j + i }
	p := [2]float64{p1, 1 - p1}
	m := [2]float64{m1, m2}
	r := float64(K) * lambda // phase rate of the arrivals
	A0, A1, A2 := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	for j := range K {
		for i := range 2 {
			s := idx(j, i)
			A1.Set(s, s, -(r + m[i]))
			if j < K-1 {
				A1.Set(s, idx(j+1, i), r)
			} else {
				A0.Set(s, idx(0, i), r)
			}
			for i2 := range 2 {
				A2.Set(s, idx(j, i2), A2.At(s, idx(j, i2))+m[i]*p[i2])
			}
		}
	}
	// Logarithmic reduction for G.
	var negA1inv mat.Dense
	negA1 := mat.DenseCopyOf(A1)
	negA1.Scale(-1, negA1)
	if err := negA1inv.Inverse(negA1); err != nil {
		t.Fatal(err)
	}
	var B0, B2 mat.Dense
	B0.Mul(&negA1inv, A0)
	B2.Mul(&negA1inv, A2)
	G := mat.DenseCopyOf(&B2)
	T := mat.DenseCopyOf(&B0)
	eye := mat.NewDiagDense(n, nil)
	for i := range n {
		eye.SetDiag(i, 1)
	}
	for it := 0; it < 200; it++ {
		var U, U2, IU, IUinv, nb0, nb2, tb2, tb0 mat.Dense
		U.Mul(&B0, &B2)
		U2.Mul(&B2, &B0)
		U.Add(&U, &U2)
		IU.Sub(eye, &U)
		if err := IUinv.Inverse(&IU); err != nil {
			t.Fatal(err)
		}
		nb0.Mul(&B0, &B0)
		nb0.Mul(&IUinv, &nb0)
		nb2.Mul(&B2, &B2)
		nb2.Mul(&IUinv, &nb2)
		B0, B2 = nb0, nb2
		tb2.Mul(T, &B2)
		G.Add(G, &tb2)
		tb0.Mul(T, &B0)
		T = &tb0
		worst := 0.0
		for i := range n {
			worst = math.Max(worst, math.Abs(1-mat.Sum(G.RowView(i))))
		}
		if worst < 1e-15 {
			break
		}
	}
	var A0G, M, Minv, R mat.Dense
	A0G.Mul(A0, G)
	M.Add(A1, &A0G)
	M.Scale(-1, &M)
	if err := Minv.Inverse(&M); err != nil {
		t.Fatal(err)
	}
	R.Mul(A0, &Minv)
	// Boundary: unknowns x = (pi_0 [K], pi_1 [n]); x Q_b = 0 with
	// Q_b = [[B00, B01], [B10, A1 + R A2]], one column replaced by the
	// normalisation.
	N := K + n
	Qb := mat.NewDense(N, N, nil)
	for j := range K {
		Qb.Set(j, j, -r)
		if j < K-1 {
			Qb.Set(j, j+1, r)
		} else {
			for i := range 2 {
				Qb.Set(j, K+idx(0, i), r*p[i])
			}
		}
		for i := range 2 {
			Qb.Set(K+idx(j, i), j, m[i]) // level 1 -> 0
		}
	}
	var RA2, L1 mat.Dense
	RA2.Mul(&R, A2)
	L1.Add(A1, &RA2)
	for a := range n {
		for b := range n {
			Qb.Set(K+a, K+b, L1.At(a, b))
		}
	}
	var IR, IRinv mat.Dense
	IR.Sub(eye, &R)
	if err := IRinv.Inverse(&IR); err != nil {
		t.Fatal(err)
	}
	ones := mat.NewVecDense(n, nil)
	for i := range n {
		ones.SetVec(i, 1)
	}
	var v1, v2 mat.VecDense // (I-R)^{-1} 1 and (I-R)^{-2} 1
	v1.MulVec(&IRinv, ones)
	v2.MulVec(&IRinv, &v1)
	for j := range K {
		Qb.Set(j, 0, 1)
	}
	for a := range n {
		Qb.Set(K+a, 0, v1.AtVec(a))
	}
	rhs := mat.NewVecDense(N, nil)
	rhs.SetVec(0, 1)
	var x mat.VecDense
	if err := x.SolveVec(Qb.T(), rhs); err != nil {
		t.Fatal(err)
	}
	jobs, busy := 0.0, 0.0
	for a := range n {
		jobs += x.AtVec(K+a) * v2.AtVec(a)
		busy += x.AtVec(K+a) * v1.AtVec(a)
	}
	return (jobs - busy) / lambda
}

// The target case: K = 2 servers fed round robin, H2 sizes of mean 1 and
// SCV 50 with balanced means, per-server load 0.98: each server is E_2/H2/1
// with gaps of mean 1/0.98. Another engineer's value is E[W] = 1237.06;
// the QBD reference confirms the roots to 1e-9.
func TestGIH2RoundRobinTarget(t *testing.T) {
	size := must(HyperExpBalanced(1, 50))
	got, err := RoundRobinH2(2*0.98, 2, size, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Wait-1237.06) > 0.005 || !near(got.Response, got.Wait+1, 1e-14) {
		t.Errorf("E_2/H2/1 SCV 50 rho=0.98: E[W]=%.6f, want 1237.06", got.Wait)
	}
	ref := qbdEKH2(t, 2, 0.98, size.P1, size.Rate1, size.Rate2)
	if !near(got.Wait, ref, 1e-9) {
		t.Errorf("E_2/H2/1 SCV 50 rho=0.98: roots %.10f, QBD %.10f", got.Wait, ref)
	}
}

// E_K/H2/1 by roots against the QBD over shapes, loads and SCVs, sizes
// scaled by a speed mu.
func TestGIH2ErlangAgainstQBD(t *testing.T) {
	for _, K := range []int{1, 2, 3} {
		for _, rho := range []float64{0.3, 0.7, 0.95} {
			for _, c2 := range []float64{2, 10} {
				size := must(HyperExpBalanced(1, c2))
				mu := 1.5
				lambda := rho * mu // E[S] = 1/mu
				got := must(GIH2(must(ErlangGaps(K, 1/lambda)), size, mu))
				ref := qbdEKH2(t, K, lambda, size.P1, size.Rate1*mu, size.Rate2*mu)
				if !near(got.Wait, ref, 1e-9) {
					t.Errorf("E_%d/H2/1 rho=%g c2=%g: roots %.12f, QBD %.12f", K, rho, c2, got.Wait, ref)
				}
			}
		}
	}
}

// Poisson arrivals: M/H2/1 is Pollaczek-Khinchine, E[W] = lambda E[S^2] / (2 (1 - rho)).
func TestGIH2PoissonIsPK(t *testing.T) {
	for _, rho := range []float64{0.2, 0.8, 0.99} {
		size := must(HyperExpBalanced(2, 20)) // mean 2
		mu := 0.5                             // E[S] = 4
		lambda := rho / 4
		got := must(GIH2(must(ExpGaps(1/lambda)), size, mu))
		pk := must(MG1{Lambda: lambda, Size: size, Mu: mu}.FCFS())
		if !near(got.Wait, pk.Wait, 1e-10) || !near(got.Response, pk.Response, 1e-10) {
			t.Errorf("M/H2/1 rho=%g: %+v, P-K %+v", rho, got, pk)
		}
	}
}

// H2 close to exponential (SCV 1 + 1e-8) runs the two-root code and must
// approach GI/M/1 (a separate root) for deterministic and Erlang gaps; the
// difference is of order the SCV excess.
func TestGIH2NearExponentialIsGIM1(t *testing.T) {
	for _, g := range []Gaps{must(DetGaps(1 / 0.7)), must(ErlangGaps(3, 1/0.9))} {
		size := must(HyperExpBalanced(1, 1+1e-8))
		got := must(GIH2(g, size, 1))
		want := must(GIM1(g, 1))
		if !near(got.Wait, want.Wait, 1e-6) {
			t.Errorf("%s: GI/H2/1 SCV 1+1e-8 E[W]=%.12f, GI/M/1 %.12f", g.Name, got.Wait, want.Wait)
		}
		exact := must(GIH2(g, must(HyperExpBalanced(1, 1)), 1)) // one phase: GIM1 itself
		if exact != want {
			t.Errorf("%s: GI/H2/1 SCV 1 %+v, GI/M/1 %+v", g.Name, exact, want)
		}
	}
	// Deterministic gaps are the limit of Erlang-K gaps as K grows (the
	// gap's variance falls like 1/K): D/H2/1 within 1e-3 of E_2000/H2/1.
	size := must(HyperExpBalanced(1, 5))
	d := must(GIH2(must(DetGaps(1/0.8)), size, 1))
	e := must(GIH2(must(ErlangGaps(2000, 1/0.8)), size, 1))
	if !near(d.Wait, e.Wait, 1e-3) || !(d.Wait < e.Wait) {
		t.Errorf("D/H2/1 E[W]=%.8f, E_2000/H2/1 %.8f", d.Wait, e.Wait)
	}
}

func TestGIH2Errors(t *testing.T) {
	size := must(HyperExpBalanced(1, 4))
	_, err := GIH2(must(DetGaps(1)), size, 1)
	wantErr(t, err, "rho=1", "unstable")
	_, err = GIH2(must(DetGaps(2)), HyperExp{P1: 1.5, Rate1: 1, Rate2: 1}, 1)
	wantErr(t, err, "H2 size law", "0 <= P1 <= 1")
	_, err = GIH2(Gaps{Mean: 1}, size, 1)
	wantErr(t, err, "no LST")
	_, err = RoundRobinH2(2, 0, size, 1)
	wantErr(t, err, "K=0")
}
