package lbsim

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// Random streams of one replication. Arrivals, sizes and dispatch decisions
// draw from separate streams so that policies compared on the same seed see
// the same jobs (common random numbers).
const (
	streamArrivals = 1
	streamSizes    = 2
	streamDispatch = 3
	streamRoute    = 4 // which dispatcher an arrival goes to (several dispatchers only)
	streamShared   = 5 // the draws of the dispatchers' shared state (sharedState): I-queues, server messages
	// streamDispatchers + i is the stream of dispatcher i >= 1; dispatcher 0
	// draws from streamDispatch, so that one dispatcher is the run of old.
	streamDispatchers = 1 << 16
)

// dispatcherStream is the identifier of dispatcher i's stream (i < maxDispatchers).
func dispatcherStream(i int) uint64 {
	if i == 0 {
		return streamDispatch
	}
	return streamDispatchers + uint64(i)
}

// Stream is a random number stream: a PCG generator (math/rand/v2) called
// directly, not through an interface, at tens of millions of draws a second.
// Its output depends only on its seed, on every machine.
type Stream struct{ pcg rand.PCG }

// NewStream returns the stream seeded with (seed1, seed2).
func NewStream(seed1, seed2 uint64) *Stream {
	return &Stream{pcg: *rand.NewPCG(seed1, seed2)}
}

// splitmix64 is a bijective mixer (Steele, Lea and Flood 2014): nearby inputs
// give unrelated outputs, so seeds 1, 2, 3 yield independent-looking streams.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newStream returns one stream of replication rep. It depends on (seed, rep,
// stream) only, never on scheduling or worker count.
func newStream(seed uint64, rep int, stream uint64) *Stream {
	a := splitmix64(seed ^ splitmix64(uint64(rep)+1))
	b := splitmix64(a ^ splitmix64(stream<<32|uint64(rep)))
	return NewStream(a, b)
}

// Uint64 is a uniform 64-bit value.
func (s *Stream) Uint64() uint64 { return s.pcg.Uint64() }

// Float64 is uniform on [0, 1) with 53 random bits.
func (s *Stream) Float64() float64 { return float64(s.pcg.Uint64()>>11) * 0x1p-53 }

// belowCount is how many of Float64's 2^53 values lie below p: Float64() <
// p exactly when Uint64()>>11 < belowCount(p), so a fill compares integers.
func belowCount(p float64) uint64 {
	switch {
	case !(p > 0): // and NaN: no value is below
		return 0
	case p >= 1:
		return 1 << 53
	}
	return uint64(math.Ceil(p * 0x1p53))
}

// IntN is uniform on 0..n-1 (n > 0), by Lemire's multiply-and-reject, which
// is exact and rarely divides.
func (s *Stream) IntN(n int) int {
	hi, lo := bits.Mul64(s.pcg.Uint64(), uint64(n))
	if lo < uint64(n) { // rare: kept out of line, the common case stays short
		return s.intNReject(n, hi, lo)
	}
	return int(hi)
}

// intNReject finishes IntN's draw when the first product fell in the zone
// that may need rejecting.
func (s *Stream) intNReject(n int, hi, lo uint64) int {
	thresh := -uint64(n) % uint64(n)
	for lo < thresh {
		hi, lo = bits.Mul64(s.pcg.Uint64(), uint64(n))
	}
	return int(hi)
}

// ExpFloat64 is exponential with rate 1, by the ziggurat of Marsaglia and
// Tsang (2000), 256 layers; one draw in about 100 needs expSlow.
func (s *Stream) ExpFloat64() float64 {
	u := s.pcg.Uint64()
	if x, ok := zigFast(u); ok {
		return x
	}
	return s.expSlow(u)
}

// zigFast is the common case of ExpFloat64 from its first uniform u: the
// exponential, and whether u fell inside the ziggurat's rectangles.
func zigFast(u uint64) (float64, bool) {
	j, i := uint32(u), uint8(u>>32)
	return float64(j) * zigW[i], j < zigK[i]
}

// expSlow finishes a draw whose first uniform u fell outside the rectangles.
func (s *Stream) expSlow(u uint64) float64 {
	for {
		j, i := uint32(u), uint8(u>>32)
		x := float64(j) * zigW[i]
		if j < zigK[i] {
			return x
		}
		if i == 0 {
			return zigR - math.Log(1-s.Float64()) // the tail beyond r
		}
		if zigF[i]+s.Float64()*(zigF[i-1]-zigF[i]) < math.Exp(-x) {
			return x
		}
		u = s.pcg.Uint64()
	}
}

// The fills below draw a block of numbers, the same draws in the same order
// as the one-number method for each, from a local copy p of the generator
// that the compiler keeps in the loop's frame, not behind s. The draw is
// written out in each loop (a function making one is too large to inline);
// its rare case (a second uniform) is redone out of line by the one-number
// method from the state before the draw: expFrom, intNFrom, pairFrom.

// expFrom is ExpFloat64() drawn from state p, and the state after it.
func (s *Stream) expFrom(p rand.PCG) (float64, rand.PCG) {
	s.pcg = p
	x := s.ExpFloat64()
	return x, s.pcg
}

// intNFrom is IntN(n) drawn from state p, and the state after it.
func (s *Stream) intNFrom(p rand.PCG, n int) (int, rand.PCG) {
	s.pcg = p
	x := s.IntN(n)
	return x, s.pcg
}

// pairFrom is samplePair(s, n) drawn from state p, and the state after it.
func (s *Stream) pairFrom(p rand.PCG, n int) (int, int, rand.PCG) {
	s.pcg = p
	a, b := samplePair(s, n)
	return a, b, s.pcg
}

// fillUniform sets out[i] = Float64().
func (s *Stream) fillUniform(out []float64) {
	p := s.pcg
	for i := range out {
		out[i] = float64(p.Uint64()>>11) * 0x1p-53
	}
	s.pcg = p
}

// fillExp sets out[i] = ExpFloat64() * scale.
func (s *Stream) fillExp(out []float64, scale float64) {
	p := s.pcg
	for i := range out {
		p0 := p
		x, ok := zigFast(p.Uint64())
		if !ok {
			x, p = s.expFrom(p0)
		}
		out[i] = x * scale
	}
	s.pcg = p
}

// fillHyperExp sets out[i] to ExpFloat64() / rate1 if a Float64() drawn
// first is below p1, else to ExpFloat64() / rate2: the H2 law's draws.
func (s *Stream) fillHyperExp(out []float64, p1, rate1, rate2 float64) {
	p := s.pcg
	for i := range out {
		rate := rate2
		if float64(p.Uint64()>>11)*0x1p-53 < p1 {
			rate = rate1
		}
		p0 := p
		x, ok := zigFast(p.Uint64())
		if !ok {
			x, p = s.expFrom(p0)
		}
		out[i] = x / rate
	}
	s.pcg = p
}

// fillIntN sets out[i] = IntN(n).
func (s *Stream) fillIntN(out []int32, n int) {
	p := s.pcg
	for i := range out {
		p0 := p
		x, lo := bits.Mul64(p.Uint64(), uint64(n))
		if lo < uint64(n) { // IntN's rejection test may be needed
			var k int
			k, p = s.intNFrom(p0, n)
			x = uint64(k)
		}
		out[i] = int32(x)
	}
	s.pcg = p
}

// fillPairs sets (a[i], b[i]) = samplePair(s, n): two distinct servers.
func (s *Stream) fillPairs(a, b []int32, n int) {
	p := s.pcg
	for i := range a {
		p0 := p
		x, lo := bits.Mul64(p.Uint64(), uint64(n))
		y, lo1 := bits.Mul64(p.Uint64(), uint64(n-1))
		if lo < uint64(n) || lo1 < uint64(n-1) {
			var u, v int
			u, v, p = s.pairFrom(p0, n)
			x, y = uint64(u), uint64(v)
		} else if y >= x {
			y++
		}
		a[i], b[i] = int32(x), int32(y)
	}
	s.pcg = p
}

// The ziggurat's layers, computed from their defining equations: the base
// layer's right edge r and the common layer area v.
const (
	zigR = 7.69711747013104972
	zigV = 3.949659822581572e-3
)

var zigK [256]uint32
var zigW, zigF [256]float64

func init() {
	const m = 1 << 32
	d, t := zigR, zigR
	q := zigV / math.Exp(-d)
	zigK[0] = uint32(d / q * m)
	zigK[1] = 0
	zigW[0] = q / m
	zigW[255] = d / m
	zigF[0] = 1
	zigF[255] = math.Exp(-d)
	for i := 254; i >= 1; i-- {
		d = -math.Log(zigV/d + math.Exp(-d))
		zigK[i+1] = uint32(d / t * m)
		t = d
		zigF[i] = math.Exp(-d)
		zigW[i] = d / m
	}
}
