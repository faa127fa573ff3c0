package lbsim

import (
	"fmt"
	"math"
)

// speedsKey is the K speeds as runs "5@2,5@1" (SpeedsText), or, when
// that is longer than maxSpeedsKey (many distinct speeds), their number and
// a hash of them.
func (c *Config) speedsKey() string {
	sp := c.Speeds
	if len(sp) <= 1 || len(sp) == c.Servers { // else invalid (Validate): keep the values given
		sp = c.speeds()
	}
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
