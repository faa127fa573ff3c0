package lbsim

import "testing"

// SED-2's dispatcher (sedPair, inline in lean blocks) gives the numbers of
// SED's Pick through the View (pickSED on View.Sample) to the last digit,
// wherever it runs: lean blocks under FCFS, the general loop (sampled
// state, PS, several dispatchers, the own view), on a board with and
// without tally, and beyond farServers; half the servers twice as fast,
// so that the expected delays, not the counts, decide.
func TestSEDPairMatchesView(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"lean", Config{Servers: 10}},
		{"sampled", Config{Servers: 10, SampleEvery: 50}},
		{"ps", Config{Servers: 10, Discipline: PS}},
		{"board", Config{Servers: 10, Refresh: 2}},
		{"board-tally", Config{Servers: 10, Refresh: 2, Tally: true}},
		{"far-servers", Config{Servers: farServers + 904}},
		{"dispatchers", Config{Servers: 10, Dispatchers: 3}},
		{"own-view", Config{Servers: 10, Dispatchers: 2, View: OwnView}},
		{"own-view-ps", Config{Servers: 10, Dispatchers: 2, View: OwnView, Discipline: PS}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Speeds = FastSlowSpeeds(cfg.Servers, 0.5, 2)
			cfg.Load, cfg.Sizes, cfg.Policy, cfg.Jobs, cfg.Seed, cfg.Reps = 0.85, h2, SED{D: 2}, 30000, 4, 2
			fast, slow := runBothWays(t, cfg)
			if !sameNumbers(fast, slow) {
				t.Errorf("sed:d=2 %v, through the View %v", fast.Wait, slow.Wait)
			}
		})
	}
}

// sedOfPair is pickSED's choice between two servers, ties included: the
// less (n + 1)/mu, on equal delays the faster, on equal speeds the first.
func TestSEDOfPair(t *testing.T) {
	srv := newServers([]float64{1, 2, 1, 3}, FCFS, true)
	for _, c := range []struct {
		a, b   int
		na, nb int64
		want   int
	}{
		{0, 1, 1, 3, 1}, // 2 against 2: the faster
		{0, 1, 1, 2, 1}, // 2 against 1.5
		{0, 1, 0, 2, 0}, // 1 against 1.5
		{0, 2, 3, 3, 0}, // 4 against 4, equal speeds: the first
		{0, 2, 3, 2, 2},
		{3, 1, 5, 3, 3}, // 2 against 2: the faster is a
		{1, 3, 3, 5, 3},
	} {
		if got := srv.sedOfPair(c.a, c.b, c.na, c.nb); got != c.want {
			t.Errorf("servers %d, %d with %d, %d jobs: picked %d, want %d", c.a, c.b, c.na, c.nb, got, c.want)
		}
	}
}
