package theory_test

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// Pollaczek-Khinchine for one server under random dispatching of the
// handout's two-point sizes.
func ExampleMG1_FCFS() {
	size := theory.TwoPointMoments(1, 1000, 0.001) // E[X] = 1.999
	d, err := theory.MG1{Lambda: 0.45, Size: size, Mu: 1}.FCFS()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("E[W] = %.3f, E[R] = %.3f\n", d.Wait, d.Response)
	_, err = theory.MG1{Lambda: 0.6, Size: size, Mu: 1}.FCFS()
	fmt.Println(err)
	// Output:
	// E[W] = 2242.158, E[R] = 2244.157
	// theory: M/G/1 load rho=1.1994 (lambda=0.6, E[X]=1.999, mu=1) is unstable: need 0 <= rho < 1; lower the arrival rate or raise the speed
}

// The handout's c* is not a valid SITA cut for its own sizes; the equal-load
// and optimal cuts are.
func ExampleSITAOptimalC() {
	const K, xm, xM, p = 100, 1.0, 1000.0, 0.001
	cs, _ := theory.HandoutCStar(K, xm, xM)
	ce, _ := theory.SITAEqualLoadC(K, xm, xM, p)
	lambda := 0.9 * K / theory.TwoPointMoments(xm, xM, p).Mean()
	best, _ := theory.SITAOptimalC(lambda, K, xm, xM, p)
	fmt.Printf("c* = %.4f, c_E = %.2f, optimal c = %d with E[W] = %.3f (short %.3f, long %.1f)\n",
		cs, ce, best.C, best.Overall.Wait, best.Short.Wait, best.Long.Wait)
	_, err := theory.SITATwoPoint(lambda, K, 0, xm, xM, p)
	fmt.Println(err)
	// Output:
	// c* = 0.0999, c_E = 49.97, optimal c = 50 with E[W] = 8.996 (short 4.478, long 4522.6)
	// theory: SITA cut c=0 is invalid for K=100 servers: need 1 <= c <= 99 so that both short and long jobs have servers; round c* up or pick c in that range
}

// Power of d choices: the mean-field limits beside round robin at rho = 0.9.
func ExampleJSQdMeanField() {
	jsq2, _ := theory.JSQdMeanField(2, 0.9)
	ll2, _ := theory.LLdMeanField(2, 0.9)
	rr, _ := theory.RoundRobinExp(0.9*100, 100, 1)
	fmt.Printf("E[R]: JSQ-2 %.4f, LL-2 %.4f, RR (K=100) %.4f\n", jsq2.Response, ll2.Response, rr.Response)
	// Output:
	// E[R]: JSQ-2 2.6141, LL-2 2.0503, RR (K=100) 5.2268
}

// The exact finite-N JSQ-2 against its mean-field limit.
func ExampleJSQdExact() {
	e, err := theory.JSQdExact(4, 2, 0.7)
	if err != nil {
		fmt.Println(err)
		return
	}
	mf, _ := theory.JSQdMeanField(2, 0.7)
	fmt.Printf("N=4: E[R] = %.6f (limit %.6f), boundary mass < 1e-10: %v\n", e.MeanResponse, mf.Response, e.BoundaryMass < 1e-10)
	// Output:
	// N=4: E[R] = 1.798358 (limit 1.614454), boundary mass < 1e-10: true
}
