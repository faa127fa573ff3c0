package lbsim

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
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
	rows := make([]Row, len(res))
	for i, r := range res {
		rows[i] = NewRow(r)
	}
	return rows, nil
}

// Row is a flat summary of one configuration's result, for tables, CSV and
// dataframes. Quantities that do not apply (the handout's measure under PS,
// per-class waits without two-point sizes, a CI from too few units) are NaN.
type Row struct {
	Policy     string  `json:"policy"`
	Servers    int     `json:"servers"`
	Load       float64 `json:"load"`
	Sizes      string  `json:"sizes"`
	SCV        float64 `json:"scv"`
	Arrivals   string  `json:"arrivals"`
	Discipline string  `json:"discipline"`
	Refresh    float64 `json:"refresh"`
	Tally      bool    `json:"tally"`
	Jobs       int64   `json:"jobs"`
	Reps       int     `json:"reps"`
	Seed       uint64  `json:"seed"`

	MeanWait          float64 `json:"mean_wait"`
	MeanWaitCI95      float64 `json:"mean_wait_ci95"`
	MeanResponse      float64 `json:"mean_response"`
	MeanResponseCI95  float64 `json:"mean_response_ci95"`
	P50Wait           float64 `json:"p50_wait"`
	P95Wait           float64 `json:"p95_wait"`
	P99Wait           float64 `json:"p99_wait"`
	HandoutWait       float64 `json:"handout_wait"`
	HandoutWaitCI95   float64 `json:"handout_wait_ci95"`
	MeanWaitShort     float64 `json:"mean_wait_short"`
	MeanWaitShortCI95 float64 `json:"mean_wait_short_ci95"`
	MeanWaitLong      float64 `json:"mean_wait_long"`
	MeanWaitLongCI95  float64 `json:"mean_wait_long_ci95"`
	Utilization       float64 `json:"utilization"`
}

// NewRow flattens a result.
func NewRow(r Result) Row {
	row := Row{
		Policy: r.Policy, Servers: r.Servers, Load: r.Load, Sizes: r.Sizes, Arrivals: r.Arrivals,
		Discipline: r.Discipline, Refresh: r.Refresh, Tally: r.Tally, Jobs: r.Jobs, Reps: r.Reps, Seed: r.Seed,
		MeanWait: r.Wait.Mean, MeanWaitCI95: r.Wait.CI95,
		MeanResponse: r.Response.Mean, MeanResponseCI95: r.Response.CI95,
		P50Wait: r.P50Wait, P95Wait: r.P95Wait, P99Wait: r.P99Wait,
		HandoutWait: math.NaN(), HandoutWaitCI95: math.NaN(),
		MeanWaitShort: math.NaN(), MeanWaitShortCI95: math.NaN(),
		MeanWaitLong: math.NaN(), MeanWaitLongCI95: math.NaN(),
		Utilization: r.Utilization, SCV: math.NaN(),
	}
	if s, err := ParseSizes(r.Sizes); err == nil {
		row.SCV = SCV(s)
	}
	if r.HasHandout {
		row.HandoutWait, row.HandoutWaitCI95 = r.Handout.Mean, r.Handout.CI95
	}
	if c, ok := r.Class("short"); ok {
		row.MeanWaitShort, row.MeanWaitShortCI95 = c.Wait.Mean, c.Wait.CI95
	}
	if c, ok := r.Class("long"); ok {
		row.MeanWaitLong, row.MeanWaitLongCI95 = c.Wait.Mean, c.Wait.CI95
	}
	return row
}

// RowHeader is the CSV header of rows: the json names of Row's fields.
func RowHeader() []string {
	t := reflect.TypeFor[Row]()
	out := make([]string, t.NumField())
	for i := range out {
		out[i] = t.Field(i).Tag.Get("json")
	}
	return out
}

// Record is the row as CSV fields, numbers in the shortest form that reads
// back exactly (so the same rows always give the same bytes).
func (r Row) Record() []string {
	v := reflect.ValueOf(r)
	out := make([]string, v.NumField())
	for i := range out {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			out[i] = f.String()
		case reflect.Float64:
			out[i] = strconv.FormatFloat(f.Float(), 'g', -1, 64)
		case reflect.Int, reflect.Int64:
			out[i] = strconv.FormatInt(f.Int(), 10)
		case reflect.Uint64:
			out[i] = strconv.FormatUint(f.Uint(), 10)
		case reflect.Bool:
			out[i] = strconv.FormatBool(f.Bool())
		}
	}
	return out
}

// WriteRows writes rows as CSV with a header line.
func WriteRows(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(RowHeader()); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r.Record()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
