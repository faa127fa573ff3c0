package lbsim

import (
	"strings"
	"testing"
)

// SITA splits jobs without looking at the servers, like RND and RR: a group whose servers get
// more work than they can do is unstable even when the total load is below 1, and Validate must
// say so (the handout's c = 1 with K = 100 puts 20% of the work on one server).
func TestSITARejectsAnUnstableGroup(t *testing.T) {
	sizes := NewTwoPointBeta(1, 1000, 0.8) // p = 1000^-0.8; short jobs bring 20% of the work
	base := Config{Servers: 100, Sizes: sizes, Load: 0.5, Jobs: 1000, Seed: 1}
	for _, tc := range []struct {
		c    int
		want string // "" = valid
	}{
		// Short group load lambda (1-p) x_m / c = 10.006/c; long group lambda p x_M / (100-c) = 39.98/(100-c).
		{1, "server 1 (short jobs) has load 10.01"},
		{10, "servers 1..10 (short jobs) have load 1.001"},
		{11, ""},
		{20, ""},
		{60, ""},
		{61, "servers 62..100 (long jobs) have load 1.025"},
	} {
		cfg := base
		cfg.Policy = SITA{C: tc.c}
		err := cfg.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("c=%d: %v, want valid", tc.c, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "c=20")):
			t.Errorf("c=%d: error %v, want it to contain %q and suggest the equal-load c=20", tc.c, err, tc.want)
		}
		cfg.AllowOverload = true
		if err := cfg.Validate(); err != nil {
			t.Errorf("c=%d with AllowOverload: %v", tc.c, err)
		}
	}
}

// SITA on one server: the message must not offer the empty range 1..0.
func TestSITAOneServer(t *testing.T) {
	cfg := Config{Servers: 1, Load: 0.5, Sizes: TwoPoint{Xm: 1, XM: 1000, P: 0.004}, Policy: SITA{C: 1}, Jobs: 1000}
	err := cfg.Validate()
	if err == nil || strings.Contains(err.Error(), "1..0") || !strings.Contains(err.Error(), "at least 2 servers") {
		t.Errorf("SITA with K=1: %v; want a message asking for at least 2 servers", err)
	}
}
