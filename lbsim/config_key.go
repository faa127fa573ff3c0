package lbsim

import (
	"fmt"
	"math"
)

// Key is a canonical text naming every parameter that affects the numbers
// of a run (all fields but Workers), for caches (nb.Cached, nb.RunAll). It
// stays short at any K: speeds are runs of equal values ("5@2,5@1"), and
// traces, long size-law specs (sizesName) and long speed lists enter
// through a hash of their values. A policy of one's own enters through what
// it does (policyKey), not only its String().
func (c Config) Key() string {
	sizes := "none"
	if c.Sizes != nil {
		sizes = sizesName(c.Sizes)
	}
	trace := "none"
	if c.Trace != nil {
		trace = fmt.Sprintf("%d#%016x#%016x", c.Trace.Len(), hashFloats(c.Trace.Times), hashFloats(c.Trace.Sizes))
	}
	return fmt.Sprintf("K=%d speeds=%s load=%v sizes=%s arrivals=%s trace=%s policy=%s refresh=%v tally=%v disc=%s jobs=%d warmup=%d auto=%v reps=%d seed=%d overload=%v sample=%v batches=%d precision=%v maxjobs=%d maxseconds=%v cv=%v",
		c.Servers, c.speedsKey(), c.Load, sizes, c.arrivals(), trace, policyKey(c), c.Refresh, c.Tally, c.Discipline,
		c.Jobs, c.Warmup, c.WarmupAuto, c.reps(), c.Seed, c.AllowOverload, c.SampleEvery, c.Batches, c.Precision, c.MaxJobs, c.MaxSeconds, c.ControlVariates) +
		c.dispatchersKey()
}

// dispatchersKey is the key's part for several dispatchers: empty for one
// (0 and 1 run the same, and the keys of old stay valid).
func (c *Config) dispatchersKey() string {
	if c.dispatchers() == 1 && len(c.DispatcherWeights) == 0 && !c.Stagger {
		return ""
	}
	return fmt.Sprintf(" dispatchers=%d weights=%v stagger=%v", c.dispatchers(), c.DispatcherWeights, c.Stagger)
}

// speedsKey is the K speeds as runs "5@2,5@1" (SpeedsText), or, when
// that is longer than maxSpeedsKey (many distinct speeds), their number and
// a hash of them.
func (c *Config) speedsKey() string {
	sp := c.speeds()
	if runs := speedRuns(sp, maxSpeedsKey); runs != "" {
		return runs
	}
	return fmt.Sprintf("%d values #%016x", len(sp), hashFloats(sp))
}

// maxSpeedsKey is the longest list of speed runs a key gives in full.
const maxSpeedsKey = 200

// hashFloats is FNV-1a over the bits of xs, low byte first.
func hashFloats(xs []float64) uint64 {
	h := fnvOffset
	for _, x := range xs {
		h = fnvUint64(h, math.Float64bits(x))
	}
	return h
}

// fnvUint64 folds the 8 bytes of b into h, low byte first.
func fnvUint64(h, b uint64) uint64 {
	for range 8 {
		h = fnvByte(h, byte(b))
		b >>= 8
	}
	return h
}

// fnvString folds the bytes of s into h.
func fnvString(h uint64, s string) uint64 {
	for i := range len(s) {
		h = fnvByte(h, s[i])
	}
	return h
}

// fnvOffset and fnvByte are FNV-1a, 64 bits: start at fnvOffset, then
// fold in each byte.
const fnvOffset = uint64(14695981039346656037)

func fnvByte(h uint64, b byte) uint64 { return (h ^ uint64(b)) * 1099511628211 }
