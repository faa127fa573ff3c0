//go:build !linux

package lbsim

import "time"

// cpuTime is f's wall time where a thread's processor time is not at hand.
func cpuTime(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
