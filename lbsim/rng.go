package lbsim

import "math/rand/v2"

// Random streams of one replication. Arrivals, sizes and dispatch decisions
// draw from separate streams so that policies compared on the same seed see the
// same jobs (common random numbers).
const (
	streamArrivals = 1
	streamSizes    = 2
	streamDispatch = 3
)

// splitmix64 is a bijective mixer (Steele, Lea and Flood 2014): nearby inputs
// give unrelated outputs, so seeds 1, 2, 3 yield independent-looking streams.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newStream returns the PCG generator of one stream of replication rep. It
// depends on (seed, rep, stream) only, never on scheduling or worker count.
func newStream(seed uint64, rep int, stream uint64) *rand.Rand {
	a := splitmix64(seed ^ splitmix64(uint64(rep)+1))
	b := splitmix64(a ^ splitmix64(stream<<32|uint64(rep)))
	return rand.New(rand.NewPCG(a, b))
}
