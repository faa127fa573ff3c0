package lbsim

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Specs are the short strings of the command line and of sweep files:
//
//	sizes:    exp:mean=M  det:x=X  twopoint:xm=A,xM=B,beta=BETA  twopoint:xm=A,xM=B,p=P
//	          h2:mean=M,scv=C  pareto:alpha=A,mean=M[,max=X]  modal:V1,V2,...
//	policies: the registry's (see Policies): rnd  rr  ll:d=D  lwl  jsq:d=D  jsq  sita:c=C ...
//	arrivals: poisson  det  ramp:from=RHO0,to=RHO1,over=T
//
// Each parser returns a validated value or an error naming the offending part.

// splitSpec splits "name:k=v,k=v" into the name and its parameters.
func splitSpec(spec string) (string, string) {
	name, params, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(params)
}

// keyValues parses "k=v,k=v" into numbers, allowing only the given keys.
func keyValues(what, params string, allowed ...string) (map[string]float64, error) {
	out := map[string]float64{}
	if params == "" {
		return out, nil
	}
	for _, kv := range strings.Split(params, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not key=value; write e.g. %s=1", what, kv, allowed[0])
		}
		k = strings.TrimSpace(k)
		if !contains(allowed, k) {
			return nil, fmt.Errorf("%s: unknown parameter %q; allowed: %s", what, k, strings.Join(allowed, ", "))
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s: parameter %q given twice; give it once", what, k)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("%s: %s=%q is out of float64's range (magnitudes up to 1.8e308, down to 5e-324); write e.g. %s=1", what, k, v, k)
		}
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: %s=%q is not a finite number; write e.g. %s=1", what, k, v, k)
		}
		out[k] = x
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func need(what string, kv map[string]float64, keys ...string) error {
	for _, k := range keys {
		if _, ok := kv[k]; !ok {
			return fmt.Errorf("%s: missing parameter %s; e.g. %s", what, k, example(what))
		}
	}
	return nil
}

func example(what string) string {
	switch what {
	case "exp":
		return "exp:mean=1"
	case "det":
		return "det:x=1"
	case "twopoint":
		return "twopoint:xm=1,xM=1000,beta=0.8"
	case "h2":
		return "h2:mean=1,scv=10"
	case "pareto":
		return "pareto:alpha=2.2,mean=1"
	case "ramp":
		return "ramp:from=0.5,to=1.2,over=1000"
	}
	return what
}

var sizeWords = []string{"exp", "det", "twopoint", "h2", "pareto", "modal"}

// ParseSizes reads a size-law spec.
func ParseSizes(spec string) (SizeLaw, error) {
	name, params := splitSpec(spec)
	var s SizeLaw
	switch name {
	case "exp":
		kv, err := keyValues(name, params, "mean")
		if err == nil {
			err = need(name, kv, "mean")
		}
		if err != nil {
			return nil, err
		}
		s = Exponential{M: kv["mean"]}
	case "det":
		kv, err := keyValues(name, params, "x")
		if err == nil {
			err = need(name, kv, "x")
		}
		if err != nil {
			return nil, err
		}
		s = Deterministic{X0: kv["x"]}
	case "twopoint":
		kv, err := keyValues(name, params, "xm", "xM", "beta", "p")
		if err == nil {
			err = need(name, kv, "xm", "xM")
		}
		if err != nil {
			return nil, err
		}
		beta, hasBeta := kv["beta"]
		p, hasP := kv["p"]
		switch {
		case hasBeta && hasP:
			return nil, fmt.Errorf("twopoint: give beta or p, not both")
		case hasP:
			s = TwoPoint{Xm: kv["xm"], XM: kv["xM"], P: p}
		case hasBeta:
			if beta <= 0 {
				return nil, fmt.Errorf("twopoint beta=%v is invalid: need beta > 0 so that P(long) = xM^-beta < 1; e.g. beta=0.8", beta)
			}
			s = NewTwoPointBeta(kv["xm"], kv["xM"], beta)
		default:
			return nil, fmt.Errorf("twopoint: missing beta or p; e.g. %s", example(name))
		}
	case "h2":
		kv, err := keyValues(name, params, "mean", "scv")
		if err == nil {
			err = need(name, kv, "mean", "scv")
		}
		if err != nil {
			return nil, err
		}
		return NewH2Balanced(kv["mean"], kv["scv"])
	case "pareto":
		kv, err := keyValues(name, params, "alpha", "mean", "max")
		if err == nil {
			err = need(name, kv, "alpha", "mean")
		}
		if err != nil {
			return nil, err
		}
		mx, ok := kv["max"]
		if ok && mx <= 0 {
			return nil, fmt.Errorf("pareto max=%v is invalid: need max > mean (or leave it out)", mx)
		}
		return NewPareto(kv["alpha"], kv["mean"], mx)
	case "modal":
		var vals []float64
		for _, f := range strings.Split(params, ",") {
			if strings.TrimSpace(f) == "" {
				continue
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return nil, fmt.Errorf("modal: %q is not a number; list sizes, e.g. modal:100,500,1000", f)
			}
			vals = append(vals, x)
		}
		s = NewModal(vals...)
	default:
		return nil, fmt.Errorf("sizes %q: unknown size law %q; use one of %s", spec, name, strings.Join(sizeWords, ", "))
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// ParseArrivals reads an arrival-process spec.
func ParseArrivals(spec string) (ArrivalProcess, error) {
	name, params := splitSpec(spec)
	switch name {
	case "poisson", "det":
		if params != "" {
			return nil, fmt.Errorf("arrivals %s take no parameters (the rate comes from -load), got %q", name, params)
		}
		if name == "det" {
			return DeterministicArrivals{}, nil
		}
		return Poisson{}, nil
	case "ramp":
		kv, err := keyValues(name, params, "from", "to", "over")
		if err == nil {
			err = need(name, kv, "from", "to", "over")
		}
		if err != nil {
			return nil, err
		}
		r := Ramp{From: kv["from"], To: kv["to"], Over: kv["over"]}
		return r, r.Validate()
	}
	words := []string{"poisson", "det", "ramp:from=A,to=B,over=T"}
	sort.Strings(words)
	return nil, fmt.Errorf("arrivals %q: unknown arrival process %q; use one of %s", spec, name, strings.Join(words, ", "))
}

// ParseDiscipline reads "fcfs" or "ps".
func ParseDiscipline(s string) (Discipline, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "fcfs", "fifo":
		return FCFS, nil
	case "ps":
		return PS, nil
	}
	return 0, fmt.Errorf("discipline %q is unknown: use fcfs or ps", s)
}
