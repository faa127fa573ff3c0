package lbsim

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/perfeval/lbsim/lbsim/internal/floats"
)

// Row is a flat summary of one configuration's result, for tables, CSV,
// JSON and dataframes: one column per setting of the field table (Fields,
// in its order), then the result's columns. Quantities that do not apply
// (the handout's measure under PS and SRPT, per-class waits without
// two-point sizes, a CI from too few units, an exact value theory does not
// know) are NaN. The parameters are typed fields, never to be parsed back
// from the spec strings.
//
// The setting and quantile fields mirror the field and percentile tables,
// filled by column name (NewRow); the package does not start unless Row
// has each table's fields in its order (checkRow names the field to add).
type Row struct {
	Policy            string  `json:"policy"` // spec, e.g. "ll:d=2"
	Servers           int     `json:"servers"`
	Speeds            string  `json:"speeds"` // the servers' speeds, compact (SpeedsText): "10@1", "5@2,5@1"; past 200 bytes their number and hash, "20000 values #…"
	Load              float64 `json:"load"`   // offered load rho; a trace's own (Trace.Load) or the one it is scaled to
	Sizes             string  `json:"sizes"`
	Arrivals          string  `json:"arrivals"`
	Trace             string  `json:"trace"` // the trace's file name and content hash, "trace1.csv#3f2a91c04b1e" (one built in Go: its length and hash), "" for none
	Discipline        string  `json:"discipline"`
	Refresh           float64 `json:"refresh"`
	Tally             bool    `json:"tally"`
	Dispatchers       int     `json:"dispatchers"`        // M
	DispatcherWeights string  `json:"dispatcher_weights"` // "2,1,1", "" for an even split; past 200 bytes their number and hash
	Stagger           bool    `json:"stagger"`
	View              string  `json:"view"`  // live, or own: each dispatcher's own jobs at each server
	Delay             float64 `json:"delay"` // D: when a dispatcher learns of a departure, after it
	Jobs              int64   `json:"jobs"`  // measured jobs per replication
	Warmup            int64   `json:"warmup"`
	WarmupAuto        bool    `json:"warmup_auto"`
	Reps              int     `json:"reps"`
	Seed              uint64  `json:"seed"`
	Batches           int     `json:"batches"`
	Precision         float64 `json:"precision"`
	MaxJobs           int64   `json:"max_jobs"`
	MaxSeconds        float64 `json:"max_seconds"`
	ControlVariates   bool    `json:"control_variates"`
	Overload          bool    `json:"overload"`
	SampleEvery       float64 `json:"sample_every"`

	Label      string  `json:"label"`       // the policy's name, e.g. LL-2
	D          int     `json:"d"`           // servers sampled per job (LL-d, JSQ-d; K for LWL and JSQ), else 0
	C          int     `json:"c"`           // SITA's servers for its shortest jobs (its first group), else 0
	SizeMean   float64 `json:"size_mean"`   // E[X]
	SCV        float64 `json:"scv"`         // the size law's squared coefficient of variation
	TraceScale float64 `json:"trace_scale"` // the factor a trace's arrival times are multiplied by to give the load (1 at the trace's own load), NaN without a trace

	MeanWait         float64 `json:"mean_wait"`          // mean waiting time
	MeanWaitCI95     float64 `json:"mean_wait_ci95"`     // half-width of its 95% interval (so every _ci95)
	MeanResponse     float64 `json:"mean_response"`      // mean response time, wait and service
	MeanResponseCI95 float64 `json:"mean_response_ci95"` // its half-width
	MeanSlowdown     float64 `json:"mean_slowdown"`      // mean slowdown: response over the job's own service time x/mu (Result.Slowdown)
	MeanSlowdownCI95 float64 `json:"mean_slowdown_ci95"` // its half-width
	// The quantiles at Percentiles with their half-widths (see Quantiles).
	P50Wait              float64 `json:"p50_wait"`               // median wait
	P50WaitCI95          float64 `json:"p50_wait_ci95"`          // its half-width
	P90Wait              float64 `json:"p90_wait"`               // 90th percentile of the wait
	P90WaitCI95          float64 `json:"p90_wait_ci95"`          // its half-width
	P99Wait              float64 `json:"p99_wait"`               // 99th percentile of the wait
	P99WaitCI95          float64 `json:"p99_wait_ci95"`          // its half-width
	P999Wait             float64 `json:"p999_wait"`              // 99.9th percentile of the wait
	P999WaitCI95         float64 `json:"p999_wait_ci95"`         // its half-width
	P50Response          float64 `json:"p50_response"`           // median response
	P50ResponseCI95      float64 `json:"p50_response_ci95"`      // its half-width
	P90Response          float64 `json:"p90_response"`           // 90th percentile of the response
	P90ResponseCI95      float64 `json:"p90_response_ci95"`      // its half-width
	P99Response          float64 `json:"p99_response"`           // 99th percentile of the response
	P99ResponseCI95      float64 `json:"p99_response_ci95"`      // its half-width
	P999Response         float64 `json:"p999_response"`          // 99.9th percentile of the response
	P999ResponseCI95     float64 `json:"p999_response_ci95"`     // its half-width
	HandoutWait          float64 `json:"handout_wait"`           // the course handout's quantity (FCFS only)
	HandoutWaitCI95      float64 `json:"handout_wait_ci95"`      // its half-width
	MeanWaitShort        float64 `json:"mean_wait_short"`        // mean wait of short jobs (two-point sizes, SITA)
	MeanWaitShortCI95    float64 `json:"mean_wait_short_ci95"`   // its half-width
	MeanWaitLong         float64 `json:"mean_wait_long"`         // mean wait of long jobs (two-point sizes, SITA)
	MeanWaitLongCI95     float64 `json:"mean_wait_long_ci95"`    // its half-width
	LoadOnCapacity       float64 `json:"load_on_capacity"`       // the measured load: the work sent per unit time over sum(mu_k), what the load setting sets (see Result.LoadOnCapacity)
	Utilization          float64 `json:"utilization"`            // plain mean of the servers' utilisations, work over each one's speed
	MaxServerUtilization float64 `json:"max_server_utilization"` // the busiest server's utilisation: with unequal speeds or an unbalanced policy it can near 1 while the mean is low
	// MaxServerLoad is the highest configured server load, rho_k = lambda
	// p_k E[X | k] / mu_k under a policy that splits jobs without reading
	// the servers (at a ramp's final load, a trace's own), else NaN.
	MaxServerLoad   float64 `json:"max_server_load"`
	CIMethod        string  `json:"ci_method"`        // how the intervals were made: replications, or batch means, and the control variates used
	MessagesPerJob  float64 `json:"messages_per_job"` // the messages the dispatchers' knowledge costs per job (Result.MessagesPerJob): probes and replies, idle tokens, board refreshes
	WarmupTruncated float64 `json:"warmup_truncated"` // the jobs discarded per replication: the warm-up, or with auto warm-up the mean MSER truncation
	TotalJobs       int64   `json:"total_jobs"`       // jobs simulated, warm-ups and precision rounds included
	PrecisionMet    bool    `json:"precision_met"`    // a precision target was reached (false without one)

	ExactWait         float64  `json:"exact_wait"`          // the exact mean wait when theory knows it (see Exact), else NaN
	ExactResponse     float64  `json:"exact_response"`      // the exact mean response, else NaN
	ExactSlowdown     float64  `json:"exact_slowdown"`      // the exact mean slowdown (Reference.Slowdown), +Inf when infinite (JSON null; the mean slowdown then has no interval), else NaN
	ExactMethod       string   `json:"exact_method"`        // its formula, or "none: " and why a promised exact chain is out of reach
	ExactP50Wait      float64  `json:"exact_p50_wait"`      // exact median wait when theory knows it, else NaN
	ExactP90Wait      float64  `json:"exact_p90_wait"`      // exact 90th percentile of the wait when theory knows it, else NaN
	ExactP99Wait      float64  `json:"exact_p99_wait"`      // exact 99th percentile of the wait when theory knows it, else NaN
	ExactP999Wait     float64  `json:"exact_p999_wait"`     // exact 99.9th percentile of the wait when theory knows it, else NaN
	ExactP50Response  float64  `json:"exact_p50_response"`  // exact median response when theory knows it, else NaN
	ExactP90Response  float64  `json:"exact_p90_response"`  // exact 90th percentile of the response when theory knows it, else NaN
	ExactP99Response  float64  `json:"exact_p99_response"`  // exact 99th percentile of the response when theory knows it, else NaN
	ExactP999Response float64  `json:"exact_p999_response"` // exact 99.9th percentile of the response when theory knows it, else NaN
	LimitWait         float64  `json:"limit_wait"`          // a K -> infinity limit or a lower bound of the mean wait (see Limit), else NaN
	LimitResponse     float64  `json:"limit_response"`      // the same of the mean response, else NaN
	LimitMethod       string   `json:"limit_method"`        // its formula
	LimitKind         string   `json:"limit_kind"`          // limit or lower bound
	Warnings          Warnings `json:"warnings"`            // the reasons not to trust a number (see Warnings), "rule: message" joined by "; " in CSV

	Units map[string][]float64 `json:"-"` // Result.Units, for compare: not columns, but kept by gob (nb's cache)

	Config Config `json:"-"` // the configuration the row came from
}

// Rows flattens results, in order: the one results-to-rows loop.
func Rows(results []Result) []Row {
	rows := make([]Row, len(results))
	for i, r := range results {
		rows[i] = NewRow(r)
	}
	return rows
}

// NewRow flattens a result.
func NewRow(r Result) Row {
	c := &r.Config
	row := Row{
		Label: r.Label, MessagesPerJob: r.MessagesPerJob,
		MeanWait: r.Wait.Mean, MeanWaitCI95: r.Wait.CI95,
		MeanResponse: r.Response.Mean, MeanResponseCI95: r.Response.CI95,
		MeanSlowdown: r.Slowdown.Mean, MeanSlowdownCI95: r.Slowdown.CI95, ExactSlowdown: math.NaN(),
		HandoutWait: math.NaN(), HandoutWaitCI95: math.NaN(),
		MeanWaitShort: math.NaN(), MeanWaitShortCI95: math.NaN(),
		MeanWaitLong: math.NaN(), MeanWaitLongCI95: math.NaN(),
		Utilization: r.Utilization, LoadOnCapacity: r.LoadOnCapacity, SizeMean: math.NaN(), SCV: math.NaN(), TraceScale: math.NaN(),
		WarmupTruncated: meanWarmup(r), PrecisionMet: r.PrecisionMet,
		MaxServerUtilization: math.NaN(), MaxServerLoad: math.NaN(), CIMethod: r.CIMethod,
		ExactWait: math.NaN(), ExactResponse: math.NaN(), LimitWait: math.NaN(), LimitResponse: math.NaN(),
		Warnings: r.Warnings, Config: r.Config, TotalJobs: r.TotalJobs,
		Units: r.Units,
	}
	row.setSettings(c)
	row.setQuantiles(r)
	desc := describe(c.Policy, c)
	row.D, row.C = desc.D, desc.C
	if len(r.ServerUtilization) > 0 {
		row.MaxServerUtilization = slices.Max(r.ServerUtilization)
	}
	if qs := c.serverLoads(); qs != nil {
		row.MaxServerLoad = slices.MaxFunc(qs, func(a, b serverLoad) int { return cmp.Compare(a.rho, b.rho) }).rho
	}
	if c.Trace != nil {
		row.TraceScale = c.traceScale()
	}
	if sizes := c.sizes(); sizes != nil {
		row.SizeMean, row.SCV = sizes.Mean(), SCV(sizes)
	}
	if r.HasExact {
		row.ExactWait, row.ExactResponse, row.ExactSlowdown = r.Exact.Wait, r.Exact.Response, r.Exact.Slowdown
	}
	row.ExactMethod = r.Exact.Method // without HasExact, why there is none
	if q := r.Exact.Quantiles; r.HasExact && q != nil && q.Method != "" {
		row.ExactMethod += "; quantiles " + q.Method
	}
	if r.HasLimit {
		row.LimitWait, row.LimitResponse, row.LimitMethod, row.LimitKind = r.Limit.Wait, r.Limit.Response, r.Limit.Method, string(r.Limit.Kind)
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

// setQuantiles fills the quantile columns: p99_wait and p99_wait_ci95 from
// r.WaitQuantiles, exact_p99_wait from the exact reference's (else NaN), ...
func (r *Row) setQuantiles(res Result) {
	v := reflect.ValueOf(r).Elem()
	set := func(col string, x float64) { v.FieldByIndex(columnField()[col].Index).SetFloat(x) }
	for i, p := range percentiles {
		for _, side := range []struct {
			name  string
			q     Quantiles
			exact func(*ExactQuantiles) float64
		}{
			{"_wait", res.WaitQuantiles, func(e *ExactQuantiles) float64 { return e.Wait[i] }},
			{"_response", res.ResponseQuantiles, func(e *ExactQuantiles) float64 { return e.Response[i] }},
		} {
			set(p.Name+side.name, side.q[i].Mean)
			set(p.Name+side.name+"_ci95", side.q[i].CI95)
			exact := math.NaN()
			if res.HasExact && res.Exact.Quantiles != nil {
				exact = side.exact(res.Exact.Quantiles)
			}
			set("exact_"+p.Name+side.name, exact)
		}
	}
}

// setSettings fills the setting columns from c through the field table.
func (r *Row) setSettings(c *Config) {
	v := reflect.ValueOf(r).Elem()
	for i := range fields {
		if f := &fields[i]; f.Result() {
			v.FieldByIndex(columnField()[f.Column()].Index).Set(reflect.ValueOf(f.ops.column(c)))
		}
	}
}

// setting is r's value of the setting column name.
func (r Row) setting(name string) any {
	return reflect.ValueOf(r).FieldByIndex(columnField()[name].Index).Interface()
}

// rowColumns are Row's fields that are columns, in RowHeader's order;
// columnField is each by its column's name.
var rowColumns = sync.OnceValue(func() []reflect.StructField {
	var out []reflect.StructField
	for f := range reflect.TypeFor[Row]().Fields() {
		if f.Tag.Get("json") != "-" {
			out = append(out, f)
		}
	}
	return out
})

var columnField = sync.OnceValue(func() map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for _, sf := range rowColumns() {
		out[sf.Tag.Get("json")] = sf
	}
	return out
})

// A table's column without its Row field stops every program at once, with
// the field to add, not NewRow with a reflect panic.
func init() {
	if err := checkRow(fields, percentiles[:]); err != nil {
		panic(err)
	}
}

// checkRow says which field Row lacks, or holds out of place or of another
// type, for the field table fs and the percentile table ps: each table's
// columns are consecutive fields in its order, the settings Row's first; a
// percentile has p99_wait, p99_wait_ci95, ..., and exact_p99_wait, ....
func checkRow(fs []Field, ps []Percentile) error {
	var settings, quantiles, exact []rowColumn
	for i := range fs {
		if f := &fs[i]; f.Result() {
			settings = append(settings, rowColumn{f.Column(), settingType(f)})
		}
	}
	f64 := reflect.TypeFor[float64]()
	for _, side := range []string{"_wait", "_response"} {
		for _, p := range ps {
			quantiles = append(quantiles, rowColumn{p.Name + side, f64}, rowColumn{p.Name + side + "_ci95", f64})
			exact = append(exact, rowColumn{"exact_" + p.Name + side, f64})
		}
	}
	const pt = "the percentile table (stat_percentiles.go)"
	return errors.Join(checkRun(settings, "the field table (config_fields.go)", true), checkRun(quantiles, pt, false), checkRun(exact, pt, false))
}

// rowColumn is a column a table gives Row, with the Go type of its values.
type rowColumn struct {
	name string
	typ  reflect.Type
}

// settingType is the Go type of a setting's column (an integer's: its Config field's).
func settingType(f *Field) reflect.Type {
	switch f.kind {
	case kindInt:
		sf, _ := reflect.TypeFor[Config]().FieldByName(f.Go)
		return sf.Type
	case kindFloat:
		return reflect.TypeFor[float64]()
	case kindBool:
		return reflect.TypeFor[bool]()
	}
	return reflect.TypeFor[string]()
}

// checkRun checks that Row holds run's columns as consecutive fields of
// their types, as its first fields if first.
func checkRun(run []rowColumn, table string, first bool) error {
	at := map[string]int{}
	for i, sf := range rowColumns() {
		at[sf.Tag.Get("json")] = i
	}
	has := func(c rowColumn) bool { _, ok := at[c.name]; return ok }
	var errs []error
	prev := -1 // the position of the run's last column Row has
	for i, c := range run {
		where := "as its first field" // where c goes, once the run's columns before it are in place
		if i > 0 {
			where = "after " + goName(run[i-1].name)
		} else if j := slices.IndexFunc(run, has); !first && j >= 0 {
			where = "before " + goName(run[j].name)
		}
		pos, ok := at[c.name]
		if !ok {
			errs = append(errs, fmt.Errorf("lbsim: Row has no field for the column %s of %s: add\n\t%s %s `json:\"%s\"`\nto Row (result_row.go) %s",
				c.name, table, goName(c.name), c.typ, c.name, where))
			continue
		}
		switch sf := rowColumns()[pos]; {
		case sf.Type != c.typ:
			errs = append(errs, fmt.Errorf("lbsim: Row.%s, the column %s of %s, is %s: make it %s", sf.Name, c.name, table, sf.Type, c.typ))
		case (first || prev >= 0) && pos != prev+1:
			errs = append(errs, fmt.Errorf("lbsim: Row.%s, the column %s of %s, is out of the table's order: move it %s", sf.Name, c.name, table, where))
		}
		prev = pos
	}
	return errors.Join(errs...)
}

// goName is the Go name of a column's field: p99_wait_ci95 is P99WaitCI95
// (and of a rule, exact_outside_ci's is ...OutsideCI).
func goName(column string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(column, "_") {
		if part == "ci95" || part == "ci" {
			b.WriteString(strings.ToUpper(part))
		} else if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// meanWarmup is the warm-up a result's replications discarded, on average:
// the fixed count, or the mean MSER truncation with auto warm-up.
func meanWarmup(r Result) float64 {
	if len(r.WarmupJobs) == 0 {
		return float64(r.Config.Warmup)
	}
	var sum float64
	for _, w := range r.WarmupJobs {
		sum += float64(w)
	}
	return sum / float64(len(r.WarmupJobs))
}

// Find returns the row of the policy labelled label (Row.Label, "LL-2", or
// its spec "ll:d=2") at the given load; the error lists the labels and loads
// the rows have, or for several rows the column that tells them apart.
func Find(rows []Row, label string, load float64) (Row, error) {
	var found []Row
	labels, loads := map[string]bool{}, map[float64]bool{}
	for _, r := range rows {
		if (r.Label == label || r.Policy == label) && math.Abs(r.Load-load) <= 1e-9*math.Max(1, load) {
			found = append(found, r)
		}
		labels[r.Label], loads[r.Load] = true, true
	}
	switch len(found) {
	case 0:
		return Row{}, fmt.Errorf("no row for policy %q at load %v: the rows have policies %s and loads %s",
			label, load, strings.Join(slices.Sorted(maps.Keys(labels)), ", "), fmtLoads(loads))
	case 1:
		return found[0], nil
	}
	return Row{}, ambiguous(found, label, load)
}

// ambiguous is Find's error for several matching rows: the first setting
// column whose values differ, and a Select that keeps the first row's value.
func ambiguous(found []Row, label string, load float64) error {
	head := fmt.Sprintf("%d rows match %q at load %v", len(found), label, load)
	if name, vals := separating(found); name != "" {
		return fmt.Errorf("%s, with %s %s: keep one first, e.g. lbsim.Select(rows, func(r lbsim.Row) bool { return %s })",
			head, name, andList(vals), selectExpr(found[0], name))
	}
	return fmt.Errorf("%s and no setting tells them apart: keep one first with lbsim.Select(rows, func(r lbsim.Row) bool { ... })", head)
}

// separating is the first setting column whose values differ among rows,
// with those values as the tables print them; "" when none does.
func separating(rows []Row) (string, []string) {
	for i := range fields {
		f := &fields[i]
		if !f.Result() || f.Name == "load" {
			continue
		}
		var vals []string
		seen := map[any]bool{}
		for _, r := range rows {
			if v := r.setting(f.Column()); !seen[v] {
				seen[v] = true
				vals = append(vals, fmtValue(v))
			}
		}
		if len(vals) > 1 {
			return f.Column(), vals
		}
	}
	return "", nil
}

// selectExpr is the Go condition that keeps r's value of column name.
func selectExpr(r Row, name string) string {
	return fmt.Sprintf("r.%s == %s", columnField()[name].Name, fmtGo(r.setting(name)))
}

// fmtValue is a column's value as the tables print it; fmtGo as Go source.
func fmtValue(v any) string {
	if x, ok := v.(float64); ok {
		return fmtNum(x)
	}
	return fmt.Sprint(v)
}

func fmtGo(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmtValue(v)
}

// andList joins "a", "b", "c" as "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// Select returns the rows for which keep is true.
func Select(rows []Row, keep func(Row) bool) []Row {
	var out []Row
	for _, r := range rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// fmtLoads is the loads, ascending, as the tables print them.
func fmtLoads(m map[float64]bool) string {
	var parts []string
	for _, x := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmtNum(x))
	}
	return strings.Join(parts, ", ")
}

// RowHeader is the CSV header of rows, the keys of their JSON objects and
// the columns of their tables: the json names of Row's fields but those
// tagged "-" (Config, Units), the setting columns (Fields) first.
func RowHeader() []string {
	var out []string
	for _, sf := range rowColumns() {
		out = append(out, sf.Tag.Get("json"))
	}
	return out
}

// values are the row's columns, in RowHeader's order.
func (r Row) values() []any {
	rv := reflect.ValueOf(r)
	var out []any
	for _, sf := range rowColumns() {
		out = append(out, rv.FieldByIndex(sf.Index).Interface())
	}
	return out
}

// Record is the row as CSV fields, numbers in the shortest form that reads
// back exactly (the same rows give the same bytes), floats with a decimal
// point ("0.0") so that a float column reads back as float (frame.ReadCSV).
func (r Row) Record() []string {
	vals := r.values()
	out := make([]string, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case float64:
			out[i] = floats.Text(x)
		default:
			out[i] = fmt.Sprint(x) // strings, integers, bools, Warnings
		}
	}
	return out
}

// MarshalJSON writes the row as one JSON object keyed by RowHeader, in its
// order (lbsim run -json); NaN and an infinite mean are null.
func (r Row) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	vals := r.values()
	for i, name := range RowHeader() {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		v := vals[i]
		if x, ok := v.(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
			v = nil
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		b.Write(data)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
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

// rowGob is Row without its methods, for gob.
type rowGob Row

// GobEncode stores the row without its Config, whose interfaces gob cannot
// encode unregistered; whoever caches rows re-attaches it (nb.RunAll does).
func (r Row) GobEncode() ([]byte, error) {
	r.Config = Config{}
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(rowGob(r))
	return b.Bytes(), err
}

// GobDecode reads what GobEncode wrote; Config is left empty.
func (r *Row) GobDecode(data []byte) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode((*rowGob)(r))
}

// resultGob is Result without its methods, for gob.
type resultGob Result

// GobEncode stores the result without its Config, as Row.GobEncode (nb.Results).
func (r Result) GobEncode() ([]byte, error) {
	r.Config = Config{}
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(resultGob(r))
	return b.Bytes(), err
}

// GobDecode reads what GobEncode wrote; Config is left empty.
func (r *Result) GobDecode(data []byte) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode((*resultGob)(r))
}
