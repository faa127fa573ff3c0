package theory

import "fmt"

// MG1 is a single M/G/1 server: Poisson arrivals at rate Lambda, i.i.d.
// sizes with law Size, and speed Mu (a job of size X is served in X/Mu).
// Its load is rho = Lambda E[X] / Mu; every result needs rho < 1.
type MG1 struct {
	Lambda float64
	Size   Moments
	Mu     float64
}

// Load returns rho = Lambda E[X] / Mu after validating the parameters.
func (q MG1) Load() (float64, error) {
	if err := checkArrivalRate(q.Lambda); err != nil {
		return 0, err
	}
	if err := checkMoments(q.Size); err != nil {
		return 0, err
	}
	if err := checkPositive("speed mu", q.Mu); err != nil {
		return 0, err
	}
	rho := q.Lambda * q.Size.Mean() / q.Mu
	if rho >= 1 {
		return rho, fmt.Errorf("theory: M/G/1 load rho=%g (lambda=%g, E[X]=%g, mu=%g) is unstable: need 0 <= rho < 1; lower the arrival rate or raise the speed",
			rho, q.Lambda, q.Size.Mean(), q.Mu)
	}
	return rho, nil
}

// FCFS returns the mean waiting and response times under first-come
// first-served, by Pollaczek-Khinchine with service times S = X/mu:
//
//	E[W] = lambda E[S^2] / (2 (1 - rho)),  E[S^2] = E[X^2]/mu^2,
//	E[R] = E[W] + E[X]/mu.
//
// Conditions: Poisson arrivals, i.i.d. sizes with E[X^2] < inf, rho < 1.
func (q MG1) FCFS() (Delay, error) {
	rho, err := q.Load()
	if err != nil {
		return Delay{}, err
	}
	es2 := q.Size.SecondMoment() / (q.Mu * q.Mu)
	w := q.Lambda * es2 / (2 * (1 - rho))
	return Delay{Wait: w, Response: w + q.Size.Mean()/q.Mu}, nil
}

// PS returns the mean response time under processor sharing,
//
//	E[R] = (E[X]/mu) / (1 - rho),
//
// which is insensitive to the size law beyond its mean. Wait is reported as
// E[R] - E[X]/mu, the mean extra time over service alone (under PS no job
// waits to start). Conditions: Poisson arrivals, rho < 1.
func (q MG1) PS() (Delay, error) {
	if q.Size != nil {
		// PS needs only the mean: accept laws whose second moment is infinite.
		q.Size = Law{M1: q.Size.Mean(), M2: q.Size.Mean() * q.Size.Mean()}
	}
	rho, err := q.Load()
	if err != nil {
		return Delay{}, err
	}
	s := q.Size.Mean() / q.Mu
	r := s / (1 - rho)
	return Delay{Wait: r - s, Response: r}, nil
}

// MD1 returns the M/D/1 delays for constant size x on a server of speed mu
// at arrival rate lambda: with s = x/mu and rho = lambda s,
//
//	E[W] = rho s / (2 (1 - rho)),  E[R] = E[W] + s.
//
// It is Pollaczek-Khinchine with E[S^2] = s^2. Conditions: rho < 1.
func MD1(lambda, x, mu float64) (Delay, error) {
	if err := checkPositive("size x", x); err != nil {
		return Delay{}, err
	}
	return MG1{Lambda: lambda, Size: DetMoments(x), Mu: mu}.FCFS()
}

// MM1 returns the M/M/1 delays for exponential sizes of mean m on a server of
// speed mu: with s = m/mu and rho = lambda s,
//
//	E[W] = rho s / (1 - rho),  E[R] = s / (1 - rho).
//
// Conditions: rho < 1.
func MM1(lambda, m, mu float64) (Delay, error) {
	if err := checkPositive("mean size m", m); err != nil {
		return Delay{}, err
	}
	return MG1{Lambda: lambda, Size: ExpMoments(m), Mu: mu}.FCFS()
}
