package lbsim

import (
	"fmt"
	"math"
)

// speedsKey is the speeds' key and column: runs "5@2,5@1" (SpeedsText),
// or past maxListKey bytes their number and hash (listHash).
func (c *Config) speedsKey() string {
	sp := c.Speeds
	if len(sp) <= 1 || len(sp) == c.Servers { // else invalid (Validate): keep the values given
		sp = c.speeds()
	}
	if runs := speedRuns(sp, maxListKey); runs != "" {
		return runs
	}
	return listHash(sp)
}

// dispatcherWeightsKey is the weights' key and column, as speedsKey: "2,1,1".
func (c *Config) dispatcherWeightsKey() string {
	if text := joinFloats(c.DispatcherWeights); len(text) <= maxListKey {
		return text
	}
	return listHash(c.DispatcherWeights)
}

// maxListKey is the longest list a key or a row's cell gives in full: a
// longer one (10^6 speeds are 8.9 MB of text) is its number and hash, so
// that a row stays a line every CSV reader takes.
const maxListKey = 200

// listHash stands for a long list: "20000 values #0123456789abcdef".
func listHash(xs []float64) string {
	return fmt.Sprintf("%d values #%016x", len(xs), hashFloats(xs))
}

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

// fnvOffset and fnvByte are 64-bit FNV-1a: start at fnvOffset, fold in bytes.
const fnvOffset = uint64(14695981039346656037)

func fnvByte(h uint64, b byte) uint64 { return (h ^ uint64(b)) * 1099511628211 }
