package lbsim

import (
	"fmt"
	"strings"
)

// Grid is a sweep: every combination of its axes applied to Base is one
// configuration. An empty axis keeps Base's value. Configurations are ordered
// with Sizes outermost, then Servers, Disciplines, Refresh, Policies, and
// Loads fastest. All configurations share Base's seed, so every policy and
// load sees the same job sizes and (scaled) arrival times: common random
// numbers, as in the course's R code.
type Grid struct {
	Base        Config
	Sizes       []SizeLaw
	Servers     []int
	Disciplines []Discipline
	Refresh     []float64
	Policies    []Policy
	Loads       []float64
}

// Configs lists the grid's configurations in sweep order.
func (g Grid) Configs() []Config {
	cfgs := []Config{g.Base}
	expand := func(n int, set func(c *Config, i int)) {
		if n == 0 {
			return
		}
		var out []Config
		for _, c := range cfgs {
			for i := range n {
				c2 := c
				set(&c2, i)
				out = append(out, c2)
			}
		}
		cfgs = out
	}
	expand(len(g.Sizes), func(c *Config, i int) { c.Sizes = g.Sizes[i] })
	expand(len(g.Servers), func(c *Config, i int) { c.Servers = g.Servers[i] })
	expand(len(g.Disciplines), func(c *Config, i int) { c.Discipline = g.Disciplines[i] })
	expand(len(g.Refresh), func(c *Config, i int) { c.Refresh = g.Refresh[i] })
	expand(len(g.Policies), func(c *Config, i int) { c.Policy = g.Policies[i] })
	expand(len(g.Loads), func(c *Config, i int) { c.Load = g.Loads[i] })
	return cfgs
}

// Valid splits the grid's configurations into those that pass
// Config.Validate and the errors of the others, each naming its point
// (pointName) by its position in the grid, from 1. A point is judged on one
// worker: whether it fits in memory with all cores running is a property of
// the machine, not of the point, so every machine keeps the same points (a
// sharded sweep's shards must agree), and such a point fails when it runs.
func (g Grid) Valid() (valid []Config, invalid []error) {
	for i, c := range g.Configs() {
		one := c
		one.Workers = 1
		if err := one.Validate(); err != nil {
			invalid = append(invalid, fmt.Errorf("configuration %d (%s): %w", i+1, pointName(c), err))
			continue
		}
		valid = append(valid, c)
	}
	return valid, invalid
}

// pointName names a configuration by the axes a grid varies: its policy
// spec, K, the load (or the trace's), the sizes, and the refresh period and
// discipline unless they are the defaults (live state, FCFS).
func pointName(c Config) string {
	var b strings.Builder
	b.WriteString(policyName(c))
	fmt.Fprintf(&b, ", K=%d", c.Servers)
	if c.Trace != nil {
		b.WriteString(", trace")
	} else {
		fmt.Fprintf(&b, ", load %s", fmtNum(c.Load))
		if c.Sizes != nil {
			b.WriteString(", sizes " + sizesName(c.Sizes))
		}
	}
	if c.Refresh != 0 {
		fmt.Fprintf(&b, ", refresh %s", fmtNum(c.Refresh))
	}
	if c.Dispatchers > 1 {
		fmt.Fprintf(&b, ", %d dispatchers", c.Dispatchers)
	}
	if c.Discipline != FCFS {
		b.WriteString(", " + c.Discipline.String())
	}
	return b.String()
}

// Sweep runs every configuration of the grid (all replications of all
// configurations spread over the cores) and returns one row each, in order.
func Sweep(g Grid, progress func(done, total int)) ([]Row, error) {
	res, err := RunAll(g.Configs(), progress)
	if err != nil {
		return nil, err
	}
	return Rows(res), nil
}
