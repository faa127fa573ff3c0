package lbsim

// ArrivalProcess is the exogenous arrival process. Its rate is given as a load:
// at load rho the arrival rate is lambda = rho * sum(mu_k) / E[X].
type ArrivalProcess interface {
	Validate() error
	String() string
	// start returns the generator for rate lambda1 at load 1 and load rho.
	start(lambda1, rho float64) arrivalGen
	// overloads reports whether the process ever reaches load 1.
	overloads(rho float64) bool
}

type arrivalGen interface {
	// next returns the arrival time that follows time t.
	next(t float64, r *Stream) float64
}
