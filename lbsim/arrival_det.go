package lbsim

// DeterministicArrivals at the configured load: one every 1/lambda.
type DeterministicArrivals struct{}

func init() {
	mustRegister(arrivalRegistry, Family[ArrivalProcess]{Name: "det", Example: "det",
		Summary: "one arrival every 1/lambda, at the configured load",
		New:     func(Params) (ArrivalProcess, error) { return DeterministicArrivals{}, nil }})
}

func (DeterministicArrivals) Validate() error            { return nil }
func (DeterministicArrivals) String() string             { return "det" }
func (DeterministicArrivals) overloads(rho float64) bool { return rho >= 1 }
func (DeterministicArrivals) start(lambda1, rho float64) arrivalGen {
	return detGen{1 / (lambda1 * rho)}
}

type detGen struct{ gap float64 }

func (g detGen) next(t float64, _ *Stream) float64 { return t + g.gap }
