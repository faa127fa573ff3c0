package lbsim

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/gob"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/floats"
)

// Row is a flat summary of one configuration's result, for tables, CSV and
// dataframes. Quantities that do not apply (the handout's measure under PS,
// per-class waits without two-point sizes, a CI from too few units, an exact
// value theory does not know) are NaN. The configuration's parameters are
// typed fields, never to be parsed back from the spec strings.
type Row struct {
	Policy     string  `json:"policy"` // spec, e.g. "ll:d=2"
	Label      string  `json:"label"`  // human name, e.g. "LL-2"
	D          int     `json:"d"`      // servers sampled per job (LL-d, JSQ-d; K for LWL and JSQ), else 0
	C          int     `json:"c"`      // SITA's servers for short jobs, else 0
	Servers    int     `json:"servers"`
	Speeds     string  `json:"speeds"` // the servers' speeds, compact (SpeedsText): "10@1", "5@2,5@1"
	Load       float64 `json:"load"`   // offered load rho; a trace's own (Trace.Load)
	Sizes      string  `json:"sizes"`
	SizeMean   float64 `json:"size_mean"`
	SCV        float64 `json:"scv"`
	Arrivals   string  `json:"arrivals"`
	Discipline string  `json:"discipline"`
	Refresh    float64 `json:"refresh"`
	Tally      bool    `json:"tally"`
	// Dispatchers is M, the number of dispatchers (Config.Dispatchers).
	Dispatchers int     `json:"dispatchers"`
	Jobs        int64   `json:"jobs"`
	Warmup      float64 `json:"warmup"` // jobs discarded per replication; with auto warm-up the mean MSER truncation
	Reps        int     `json:"reps"`
	Seed        uint64  `json:"seed"`

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
	// LoadOnCapacity is the measured load, work over sum(mu_k) (see
	// Result.LoadOnCapacity); Utilization the plain mean of the servers'.
	LoadOnCapacity float64 `json:"load_on_capacity"`
	Utilization    float64 `json:"utilization"`
	// MaxServerUtilization is the busiest server's: with unequal speeds or
	// an unbalanced policy it can near 1 while the mean is low.
	MaxServerUtilization float64 `json:"max_server_utilization"`
	// MaxServerLoad is the highest configured server load, rho_k = lambda
	// p_k E[X | k] / mu_k under a policy that splits jobs without reading
	// the servers (at a ramp's final load, a trace's own), else NaN.
	MaxServerLoad float64 `json:"max_server_load"`
	CIMethod      string  `json:"ci_method"` // how the CIs were made: "replications" or "batch means"
	// MessagesPerJob is the messages the dispatchers' knowledge costs per
	// job (Result.MessagesPerJob): probes and replies, idle tokens, board refreshes.
	MessagesPerJob float64 `json:"messages_per_job"`

	TotalJobs     int64    `json:"total_jobs"`     // jobs simulated, warm-ups and precision rounds included
	ExactWait     float64  `json:"exact_wait"`     // the exact mean wait (see Exact), else NaN
	ExactResponse float64  `json:"exact_response"` // the exact mean response, else NaN
	ExactMethod   string   `json:"exact_method"`   // its formula
	LimitWait     float64  `json:"limit_wait"`     // a K -> infinity limit or a lower bound of the mean wait (see Limit), else NaN
	LimitResponse float64  `json:"limit_response"` // the same of the mean response, else NaN
	LimitMethod   string   `json:"limit_method"`   // its formula
	LimitKind     string   `json:"limit_kind"`     // "limit" or "lower bound"
	Warnings      Warnings `json:"warnings"`

	// RepWait and RepResponse are Result's per-replication (or batch)
	// means, for Compare: not columns, but kept by gob (nb's cache).
	RepWait     []float64 `json:"-"`
	RepResponse []float64 `json:"-"`

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
	row := Row{
		Policy: r.Policy, Label: r.Label, Servers: r.Servers, Load: r.Load, Sizes: r.Sizes, Arrivals: r.Arrivals,
		Discipline: r.Discipline, Refresh: r.Refresh, Tally: r.Tally, Dispatchers: r.Dispatchers,
		Jobs: r.Jobs, Reps: r.Reps, Seed: r.Seed, MessagesPerJob: r.MessagesPerJob,
		MeanWait: r.Wait.Mean, MeanWaitCI95: r.Wait.CI95,
		MeanResponse: r.Response.Mean, MeanResponseCI95: r.Response.CI95,
		P50Wait: r.P50Wait, P95Wait: r.P95Wait, P99Wait: r.P99Wait,
		HandoutWait: math.NaN(), HandoutWaitCI95: math.NaN(),
		MeanWaitShort: math.NaN(), MeanWaitShortCI95: math.NaN(),
		MeanWaitLong: math.NaN(), MeanWaitLongCI95: math.NaN(),
		Utilization: r.Utilization, LoadOnCapacity: r.LoadOnCapacity, SizeMean: math.NaN(), SCV: math.NaN(),
		Speeds: SpeedsText(r.Config.Speeds, r.Servers), Warmup: meanWarmup(r),
		MaxServerUtilization: math.NaN(), MaxServerLoad: math.NaN(), CIMethod: r.CIMethod,
		ExactWait: math.NaN(), ExactResponse: math.NaN(), LimitWait: math.NaN(), LimitResponse: math.NaN(),
		Warnings: r.Warnings, Config: r.Config, TotalJobs: r.TotalJobs,
		RepWait: r.RepWait, RepResponse: r.RepResponse,
	}
	row.D, row.C = rowParams(r.Config.Policy, r.Servers)
	if len(r.ServerUtilization) > 0 {
		row.MaxServerUtilization = slices.Max(r.ServerUtilization)
	}
	if qs := r.Config.serverLoads(); qs != nil {
		row.MaxServerLoad = slices.MaxFunc(qs, func(a, b serverLoad) int { return cmp.Compare(a.rho, b.rho) }).rho
	}
	if sizes := r.Config.sizes(); sizes != nil {
		row.SizeMean, row.SCV = sizes.Mean(), SCV(sizes)
	}
	if r.HasExact {
		row.ExactWait, row.ExactResponse, row.ExactMethod = r.Exact.Wait, r.Exact.Response, r.Exact.Method
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

// Find returns the row of the policy labelled label (as in Row.Label, e.g.
// "LL-2", or its spec "ll:d=2") at the given load; the error lists the
// labels and loads the rows do have, or, when several rows match (a grid
// over K or T), the column that tells them apart and how to keep one.
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
			label, load, strings.Join(sortedKeys(labels), ", "), fmtLoads(loads))
	case 1:
		return found[0], nil
	}
	return Row{}, ambiguous(found, label, load)
}

// rowKeys are the columns besides the label and the load that tell a grid's
// rows apart, with their Go syntax for a Select filter.
var rowKeys = []struct {
	name string
	of   func(Row) any
}{
	{"Policy", func(r Row) any { return r.Policy }}, {"Servers", func(r Row) any { return r.Servers }},
	{"Speeds", func(r Row) any { return r.Speeds }}, {"Warmup", func(r Row) any { return r.Warmup }},
	{"Sizes", func(r Row) any { return r.Sizes }}, {"Arrivals", func(r Row) any { return r.Arrivals }},
	{"Discipline", func(r Row) any { return r.Discipline }}, {"Refresh", func(r Row) any { return r.Refresh }},
	{"Tally", func(r Row) any { return r.Tally }}, {"Dispatchers", func(r Row) any { return r.Dispatchers }},
	{"Jobs", func(r Row) any { return r.Jobs }},
	{"Reps", func(r Row) any { return r.Reps }}, {"Seed", func(r Row) any { return r.Seed }},
}

// ambiguous is Find's error for several matching rows: the first column
// whose values differ, and a Select that keeps the first row's value.
func ambiguous(found []Row, label string, load float64) error {
	head := fmt.Sprintf("%d rows match %q at load %v", len(found), label, load)
	for _, k := range rowKeys {
		var vals []string
		seen := map[any]bool{}
		for _, r := range found {
			if v := k.of(r); !seen[v] {
				seen[v] = true
				vals = append(vals, fmtValue(v))
			}
		}
		if len(vals) > 1 {
			return fmt.Errorf("%s, with %s %s: keep one first, e.g. lbsim.Select(rows, func(r lbsim.Row) bool { return r.%s == %s })",
				head, k.name, andList(vals), k.name, fmtGo(k.of(found[0])))
		}
	}
	return fmt.Errorf("%s and no column tells them apart (their precision may): keep one first with lbsim.Select(rows, func(r lbsim.Row) bool { ... })", head)
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

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func fmtLoads(m map[float64]bool) string {
	xs := make([]float64, 0, len(m))
	for x := range m {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmtNum(x)
	}
	return strings.Join(parts, ", ")
}

// RowHeader is the CSV header of rows: the json names of Row's fields
// (Config and the replication means, tagged "-", are not columns).
func RowHeader() []string {
	var out []string
	for _, f := range rowColumns() {
		out = append(out, f.Tag.Get("json"))
	}
	return out
}

func rowColumns() []reflect.StructField {
	var out []reflect.StructField
	for f := range reflect.TypeFor[Row]().Fields() {
		if f.Tag.Get("json") != "-" {
			out = append(out, f)
		}
	}
	return out
}

// Record is the row as CSV fields, numbers in the shortest form that reads
// back exactly (so the same rows always give the same bytes), floats with a
// decimal point ("0.0") so that a float column reads back as float
// (frame.ReadCSV) whatever its values.
func (r Row) Record() []string {
	v := reflect.ValueOf(r)
	var out []string
	for _, sf := range rowColumns() {
		f := v.FieldByIndex(sf.Index)
		var s string
		switch f.Kind() {
		case reflect.String:
			s = f.String()
		case reflect.Float64:
			s = floats.Text(f.Float())
		case reflect.Int, reflect.Int64:
			s = strconv.FormatInt(f.Int(), 10)
		case reflect.Uint64:
			s = strconv.FormatUint(f.Uint(), 10)
		case reflect.Bool:
			s = strconv.FormatBool(f.Bool())
		default:
			s = fmt.Sprint(f.Interface()) // Warnings
		}
		out = append(out, s)
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

// rowGob is Row without its methods, for gob.
type rowGob Row

// GobEncode stores the row without its Config, whose interfaces (the policy,
// possibly a user's own type) gob cannot encode without registration;
// whoever caches rows re-attaches the configurations (nb.RunAll does).
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

// GobEncode stores the result without its Config, as Row.GobEncode does;
// whoever caches results re-attaches the configurations (nb.Results does).
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
