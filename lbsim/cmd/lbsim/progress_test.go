package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step at each call.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(step); return t }
}

func TestProgressBarETA(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, tty: true, label: "sweep", now: fakeClock(3 * time.Second), start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p.update(1, 4) // 3 s for 1 of 4: ETA 9 s
	if got := b.String(); !strings.Contains(got, "\rsweep [#######.......................] 1/4  25% elapsed 3s ETA 9s") {
		t.Errorf("bar after 1/4: %q", got)
	}
	b.Reset()
	p.update(3, 4) // 6 s for 3 of 4: ETA 2 s
	if got := b.String(); !strings.Contains(got, "3/4  75% elapsed 6s ETA 2s") || strings.Contains(got, "\n") {
		t.Errorf("bar after 3/4: %q", got)
	}
	b.Reset()
	p.update(4, 4)
	if got := b.String(); !strings.Contains(got, "4/4 100%") || !strings.HasSuffix(got, "\n") {
		t.Errorf("final bar: %q", got)
	}
}

func TestProgressPlainLinesAreThrottled(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, label: "sweep", interval: 10 * time.Second, now: fakeClock(4 * time.Second), start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for done := 1; done <= 10; done++ {
		p.update(done, 10)
	}
	// Calls at 4, 8, ..., 40 s: a line for the first, then at the first
	// call 10 s or more after the previous line (16 s, 28 s), and the last.
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		"sweep: 1/10 configurations (10%), elapsed 4s, ETA 36s",
		"sweep: 4/10 configurations (40%), elapsed 16s, ETA 24s",
		"sweep: 7/10 configurations (70%), elapsed 28s, ETA 12s",
		"sweep: 10/10 configurations (100%), elapsed 40s, ETA 0s",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("plain progress:\n%s\nwant\n%s", b.String(), strings.Join(want, "\n"))
	}
	if strings.Contains(b.String(), "\r") {
		t.Error("plain progress contains carriage returns")
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file is taken for a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("/dev/tty is not taken for a terminal")
		}
	}
}
