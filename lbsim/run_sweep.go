package lbsim

import (
	"fmt"
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
// Config.Validate and the errors of the others (each naming its configuration).
func (g Grid) Valid() (valid []Config, invalid []error) {
	for i, c := range g.Configs() {
		if err := c.Validate(); err != nil {
			invalid = append(invalid, fmt.Errorf("configuration %d (%s, K=%d, load %v): %w", i+1, Label(c.Policy), c.Servers, c.Load, err))
			continue
		}
		valid = append(valid, c)
	}
	return valid, invalid
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
