package lbsim

import (
	"errors"
	"fmt"
)

// maxDispatchers bounds M: each dispatcher keeps its own board and policy
// state (K entries each: dispatcherBytes) and a stream of its own (rng.go).
const maxDispatchers = 10_000

// dispatchers is M, the number of dispatchers: Dispatchers, or 1 for 0.
func (c *Config) dispatchers() int { return max(c.Dispatchers, 1) }

// checkDispatchers bounds M (before anything of size M K is estimated).
func (c *Config) checkDispatchers() error {
	if c.Dispatchers < 0 || c.Dispatchers > maxDispatchers {
		return fmt.Errorf("dispatchers M=%d is invalid: need 1 <= M <= %d (0 = 1); e.g. -dispatchers 10", c.Dispatchers, maxDispatchers)
	}
	return nil
}

// checkDispatcherWeights: one weight > 0 a dispatcher.
func (c *Config) checkDispatcherWeights() error {
	m := c.dispatchers()
	if n := len(c.DispatcherWeights); n > 0 && n != m {
		return fmt.Errorf("dispatcher weights: %d values given for M=%d dispatchers: give exactly M weights, e.g. -dispatchers %d, or none (arrivals split evenly)", n, m, n)
	}
	if len(c.DispatcherWeights) == 1 {
		if err := c.severalOnly("dispatcher weight "+joinFloats(c.DispatcherWeights), "weights split the arrivals among the dispatchers, and one takes them all",
			"leave -dispatcher-weights out, or give one weight a dispatcher, e.g. -dispatchers 2 -dispatcher-weights 2,1"); err != nil {
			return err
		}
	}
	for i, w := range c.DispatcherWeights {
		if err := inRange(fmt.Sprintf("dispatcher weight w_%d", i+1), w, "weights are relative shares of the arrivals, e.g. 2,1,1"); err != nil {
			return err
		}
	}
	return nil
}

// severalOnly refuses an option that acts between dispatchers when c has
// one: it would change nothing, yet its label, key and row would name
// another system. acts says what it acts on; fix is the fix.
func (c *Config) severalOnly(option, acts, fix string) error {
	if c.dispatchers() > 1 {
		return nil
	}
	return fmt.Errorf("%s has no effect with one dispatcher (M=1): %s; %s", option, acts, fix)
}

// checkStagger: staggered boards need boards, and several.
func (c *Config) checkStagger() error {
	if c.Stagger && (c.dispatchers() < 2 || c.Refresh == 0) {
		return errors.New("stagger needs a board and several dispatchers: set a refresh period T > 0 and -dispatchers M >= 2 (one board has nothing to stagger against)")
	}
	return nil
}

// dispatcherShares are the weights normalised, nil for an even split.
func (c *Config) dispatcherShares() []float64 {
	if len(c.DispatcherWeights) == 0 {
		return nil
	}
	sum := 0.0
	for _, w := range c.DispatcherWeights {
		sum += w
	}
	out := make([]float64, len(c.DispatcherWeights))
	for i, w := range c.DispatcherWeights {
		out[i] = w / sum
	}
	return out
}

// evenSplit: every dispatcher gets the same share (no weights, or equal ones).
func (c *Config) evenSplit() bool { return allEqual(c.DispatcherWeights) }

// maxProbeDispatchers bounds the dispatchers of a probe of a policy of
// one's own (Config.Key): a probe of a few jobs needs few to take every
// branch on Dispatchers() > 1 and on Dispatcher() < maxProbeDispatchers.
const maxProbeDispatchers = 8

// probeDispatchers are c's first min(M, maxProbeDispatchers) dispatchers
// for a probe run, with their weights, staggered if c's are and it has boards.
func (c *Config) probeDispatchers(board bool) (m int, weights []float64, stagger bool) {
	m, weights = min(c.dispatchers(), maxProbeDispatchers), c.DispatcherWeights
	if len(weights) == c.dispatchers() { // else invalid: the probe reports it as given
		weights = weights[:m]
	}
	return m, weights, c.Stagger && board && m > 1
}

// indexesTold is the number of dispatchers told of each job sent
// (dispatcherSet.sent): on a board (Refresh > 0) or under the own view the
// sender only, live all M (each mirrors the servers).
func (c *Config) indexesTold() int64 {
	if c.Refresh > 0 || c.View == OwnView {
		return 1
	}
	return int64(c.dispatchers())
}
