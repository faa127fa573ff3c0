package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// renice sets the scheduling niceness of every thread of this process
// (Linux keeps a niceness per thread; threads and processes started later
// inherit it, the proxies included). A negative niceness, ahead of the
// machine's other work, needs root: it keeps the machine's other work from
// delaying the client, the proxies and the replies, which the client's
// reading carries.
func renice(n int) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("-nice %d: %w", n, err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil {
			return fmt.Errorf("-nice %d: %w (a negative niceness needs root)", n, err)
		}
	}
	return nil
}
