package lbsim

// Poisson arrivals at the configured load: exponential gaps of mean 1/lambda.
type Poisson struct{}

func init() {
	mustRegister(arrivalRegistry, Family[ArrivalProcess]{Name: "poisson", Example: "poisson",
		Summary: "Poisson arrivals at the configured load (exponential gaps)",
		New:     func(Params) (ArrivalProcess, error) { return Poisson{}, nil }})
}

func (Poisson) Validate() error                       { return nil }
func (Poisson) String() string                        { return "poisson" }
func (Poisson) overloads(rho float64) bool            { return rho >= 1 }
func (Poisson) start(lambda1, rho float64) arrivalGen { return poissonGen{1 / (lambda1 * rho)} }

type poissonGen struct{ mean float64 }

func (g poissonGen) next(t float64, r *Stream) float64 { return t + r.ExpFloat64()*g.mean }
