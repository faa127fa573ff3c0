package lbsim

import (
	"fmt"
	"slices"
	"strings"
)

// Weights are the per-server weights of a weighted policy (rnd:weights=...,
// rr:weights=...): the servers' speeds (Speed), or explicit values, one per
// server. A server's share of the jobs is its weight over the sum.
type Weights struct {
	Speed  bool      // weigh each server by its speed mu_k
	Values []float64 // else one weight > 0 per server
}

// weightsParam reads a weighted family's weights key: "speed" or a list
// (2/1/1, 5@2/5@1); ok is false when the spec gives no weights.
func weightsParam(name string, p Params) (w Weights, ok bool, err error) {
	word, list := p.Word("weights"), p.List("weights")
	switch {
	case word == "speed":
		return Weights{Speed: true}, true, nil
	case word != "" || p.Has("weights") && list == nil:
		return w, false, fmt.Errorf("%s: weights=%s is invalid: use weights=speed or one weight per server separated by '/', e.g. %s:weights=2/1/1 or %s:weights=5@2/5@1", name, spec(p, "weights"), name, name)
	case list != nil:
		return Weights{Values: list}, true, nil
	}
	return w, false, nil
}

// spec is the value key was given in p, for messages.
func spec(p Params, key string) string {
	if w := p.Word(key); w != "" {
		return w
	}
	return fmtNum(p[key])
}

// String is the weights as a spec value: "speed", or the runs "5@2/5@1".
func (w Weights) String() string {
	if w.Speed {
		return "speed"
	}
	return strings.ReplaceAll(speedRuns(w.Values, 1<<30), ",", "/")
}

// label is the label's suffix: "speed", or "w" for explicit weights.
func (w Weights) label() string {
	if w.Speed {
		return "speed"
	}
	return "w"
}

// given reports whether weights were given; the zero value is none: all equal.
func (w Weights) given() bool { return w.Speed || w.Values != nil }

// validate checks explicit weights against K servers.
func (w Weights) validate(name string, k int) error {
	if !w.given() || w.Speed {
		return nil
	}
	if len(w.Values) != k {
		return fmt.Errorf("%s: %d weights for K=%d servers: need one weight per server, e.g. %s:weights=%d@1, or weights=speed", name, len(w.Values), k, name, k)
	}
	for i, x := range w.Values {
		if !(x > 0) {
			return fmt.Errorf("%s: weight %d is %v: need every weight > 0 (a server of weight 0 would get no jobs; use fewer servers instead)", name, i+1, x)
		}
	}
	return nil
}

// of is the K weights for servers of the given speeds (none given: 1 each).
func (w Weights) of(speeds []float64) []float64 {
	switch {
	case w.Speed:
		return speeds
	case w.Values == nil:
		return slices.Repeat([]float64{1}, len(speeds))
	}
	return w.Values
}

// fewGroups reports whether c's servers have at most n distinct weights, in O(n) for many.
func (w Weights) fewGroups(c *Config, n int) bool {
	ws := w.Values
	if w.Speed {
		ws = c.Speeds // none or one: all equal
	}
	var seen []float64
	for _, x := range ws {
		if !slices.Contains(seen, x) {
			if seen = append(seen, x); len(seen) > n {
				return false
			}
		}
	}
	return true
}

// shares are the weights normalised to sum to 1: each server's share of the jobs.
func (w Weights) shares(speeds []float64) []float64 {
	ws := w.of(speeds)
	sum := 0.0
	for _, x := range ws {
		sum += x
	}
	out := make([]float64, len(ws))
	for i, x := range ws {
		out[i] = x / sum
	}
	return out
}

// viewSpeeds are the K speeds a View sees.
func viewSpeeds(v *View) []float64 {
	out := make([]float64, v.K())
	for k := range out {
		out[k] = v.Speed(k)
	}
	return out
}
