package lbsim

import (
	"runtime"
	"syscall"
	"time"
)

// cpuTime runs f on one locked thread and returns the processor time that
// thread spent: on a shared machine the wall time counts others' work too.
func cpuTime(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &before)
	f()
	syscall.Getrusage(syscall.RUSAGE_THREAD, &after)
	used := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return used(after) - used(before)
}
