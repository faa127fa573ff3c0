package lbsim

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// With unequal speeds the mean of the servers' utilisations is not the
// load: five servers of speed 2 and five of speed 1 at rho = 0.8 under
// LL-2 (0.823: slow servers get more than their share). The load on capacity, sum of work over sum of
// speeds, is what the configured load says; results, rows, JSON and the
// summary name both apart.
func TestLoadOnCapacityIsTheLoad(t *testing.T) {
	sp, _ := ParseSpeeds("5@2,5@1")
	cfg := Config{Servers: 10, Speeds: sp, Load: 0.8, Sizes: Exponential{M: 1}, Policy: LeastLoaded{D: 2},
		Jobs: 400_000, Warmup: 10_000, Seed: 1}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	work := 0.0 // per unit time, from the servers' utilisations
	for k, u := range r.ServerUtilization {
		work += u * cfg.speed(k)
	}
	if want := work / cfg.Capacity(); math.Abs(r.LoadOnCapacity-want) > 1e-12 || math.Abs(r.LoadOnCapacity-0.8) > 0.01 {
		t.Errorf("load on capacity %.4f, want sum(u_k mu_k)/sum(mu) = %.4f, near the load 0.8", r.LoadOnCapacity, want)
	}
	if math.Abs(r.Utilization-0.8) < 0.01 {
		t.Errorf("mean server utilisation %.4f: expected it well below the load 0.8 here", r.Utilization)
	}
	if row := NewRow(r); row.LoadOnCapacity != r.LoadOnCapacity || rowField(t, row, "load_on_capacity") == "" {
		t.Errorf("row load_on_capacity %v, want %v", row.LoadOnCapacity, r.LoadOnCapacity)
	}
	s := r.String()
	if !strings.Contains(s, fmt.Sprintf("load on capacity %.4g", r.LoadOnCapacity)) || !strings.Contains(s, "server utilisation: mean") {
		t.Errorf("summary does not name the load on capacity and the per-server mean apart:\n%s", s)
	}
}
