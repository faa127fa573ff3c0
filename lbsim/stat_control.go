package lbsim

import "math"

// Control variates, regression-adjusted at the level of the CI units
// (Lavenberg and Welch, "A perspective on the use of control variables to
// increase the efficiency of Monte Carlo simulations", Management Science
// 27(3), 1981; Law, Simulation Modeling and Analysis, sec. 11.3). Unit i of
// n (a replication, or with one replication a batch) gives its mean Y_i of
// the metric and the means C_i of q controls, quantities whose expectation
// mu_C is known exactly (the mean size drawn is E[X] whatever the policy).
// With Ybar, Cbar the means over units,
//
//	S_CC  = sum_i (C_i - Cbar)(C_i - Cbar)'      (q x q)
//	s_CY  = sum_i (C_i - Cbar)(Y_i - Ybar)       (q)
//	beta  = S_CC^-1 s_CY                         (least squares of Y on C)
//	Y_cv  = Ybar - beta'(Cbar - mu_C)
//	s_e^2 = sum_i [(Y_i - Ybar) - beta'(C_i - Cbar)]^2 / (n - 1 - q)
//	half  = t_{0.975, n-1-q} s_e sqrt(1/n + (Cbar - mu_C)' S_CC^-1 (Cbar - mu_C))
//
// the intercept of the regression and its standard error, exact when
// (Y_i, C_i) are i.i.d. jointly normal. The controls remove the part of
// Y's variance they explain (R^2) at the price of q degrees of freedom and a
// factor (n-2)/(n-q-2) on the variance (Lavenberg and Welch's loss factor),
// so a control is used only while n-1-q >= minControlDF.

// minControlDF is the fewest residual degrees of freedom, n-1-q, that
// control variates leave: below, the t quantile and the loss factor eat
// what a control may save (t_{0.975} = 2.31 at 8, 2.09 at 19).
const minControlDF = 8

// controlAdjust is beta'(Cbar - mu) and the half-width above, for unit
// means y, control means c[i] (q each) and their known means mu. The
// controls must leave n-1-q >= 1 and S_CC positive definite (pickControls).
func controlAdjust(y []float64, c [][]float64, mu []float64) (adj, half float64) {
	n, q := len(y), len(mu)
	ybar, cbar := meanOf(y), make([]float64, q)
	for _, ci := range c {
		for j := range q {
			cbar[j] += ci[j] / float64(n)
		}
	}
	scc, scy := crossProducts(c, cbar), make([]float64, q)
	for i, ci := range c {
		for j := range q {
			scy[j] += (ci[j] - cbar[j]) * (y[i] - ybar)
		}
	}
	l, _ := cholesky(scc, 0)
	beta := cholSolve(l, scy)
	d := make([]float64, q)
	for j := range q {
		d[j] = cbar[j] - mu[j]
		adj += beta[j] * d[j]
	}
	var sse float64
	for i, ci := range c {
		e := y[i] - ybar
		for j := range q {
			e -= beta[j] * (ci[j] - cbar[j])
		}
		sse += e * e
	}
	df := n - 1 - q
	quad := 0.0 // d' S_CC^-1 d
	for j, v := range cholSolve(l, d) {
		quad += d[j] * v
	}
	return adj, tQuantile(0.975, df+1) * math.Sqrt(sse/float64(df)*(1/float64(n)+quad))
}

// crossProducts is sum_i (c_i - cbar)(c_i - cbar)'.
func crossProducts(c [][]float64, cbar []float64) [][]float64 {
	q := len(cbar)
	s := make([][]float64, q)
	for j := range s {
		s[j] = make([]float64, q)
	}
	for _, ci := range c {
		for j := range q {
			for k := range q {
				s[j][k] += (ci[j] - cbar[j]) * (ci[k] - cbar[k])
			}
		}
	}
	return s
}

// pickControls keeps, in order, each control of the unit means c that
// leaves n-1-q >= minControlDF and is not (up to rounding) constant or a
// linear function of the kept ones (sizes and their squares under a
// two-point law); dropped[j] says why control j was not kept.
func pickControls(c [][]float64) (kept []int, dropped []string) {
	n := len(c)
	if n == 0 {
		return nil, nil
	}
	q := len(c[0])
	dropped = make([]string, q)
	for j := range q {
		if n-1-(len(kept)+1) < minControlDF {
			dropped[j] = "too few units"
			continue
		}
		cols := append(append([]int(nil), kept...), j)
		sub := make([][]float64, n)
		for i := range c {
			for _, k := range cols {
				sub[i] = append(sub[i], c[i][k])
			}
		}
		cbar := make([]float64, len(cols))
		for _, si := range sub {
			for k, v := range si {
				cbar[k] += v / float64(n)
			}
		}
		var sq float64 // sum of squares, the scale of constancy
		for _, si := range sub {
			sq += si[len(cols)-1] * si[len(cols)-1]
		}
		scc := crossProducts(sub, cbar)
		if last := len(cols) - 1; !(scc[last][last] > 1e-12*sq) {
			dropped[j] = "constant"
			continue
		}
		if _, ok := cholesky(scc, 1e-9); !ok {
			dropped[j] = "collinear"
			continue
		}
		kept = append(kept, j)
	}
	return kept, dropped
}

// cholesky factors the symmetric a as L L'; ok is false when a pivot's
// square is at most tol times its diagonal entry of a, or that entry is
// not positive: the column is (nearly) a combination of the earlier ones.
func cholesky(a [][]float64, tol float64) (l [][]float64, ok bool) {
	q := len(a)
	l = make([][]float64, q)
	for i := range l {
		l[i] = make([]float64, q)
	}
	for j := range q {
		s := a[j][j]
		for k := range j {
			s -= l[j][k] * l[j][k]
		}
		if !(s > tol*a[j][j]) || a[j][j] <= 0 {
			return l, false
		}
		l[j][j] = math.Sqrt(s)
		for i := j + 1; i < q; i++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			l[i][j] = s / l[j][j]
		}
	}
	return l, true
}

// cholSolve solves L L' x = b.
func cholSolve(l [][]float64, b []float64) []float64 {
	q := len(b)
	x := append([]float64(nil), b...)
	for i := range q { // L z = b
		for k := range i {
			x[i] -= l[i][k] * x[k]
		}
		x[i] /= l[i][i]
	}
	for i := q - 1; i >= 0; i-- { // L' x = z
		for k := i + 1; k < q; k++ {
			x[i] -= l[k][i] * x[k]
		}
		x[i] /= l[i][i]
	}
	return x
}
