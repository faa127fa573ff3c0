package lbsim

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// rowField is the CSV cell of column name in row.
func rowField(t *testing.T, row Row, name string) string {
	t.Helper()
	i := slices.Index(RowHeader(), name)
	if i < 0 {
		t.Fatalf("no column %q in %v", name, RowHeader())
	}
	return row.Record()[i]
}

func TestSpeedsText(t *testing.T) {
	for _, c := range []struct {
		speeds []float64
		k      int
		want   string
	}{
		{nil, 10, "10@1"}, {[]float64{2}, 10, "10@2"}, {[]float64{1.5, 1.5, 1.5}, 3, "3@1.5"},
		{[]float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, 10, "5@2,5@1"}, {[]float64{2, 2, 1, 3, 3}, 5, "2@2,1@1,2@3"},
	} {
		if got := SpeedsText(c.speeds, c.k); got != c.want {
			t.Errorf("SpeedsText(%v) = %q, want %q", c.speeds, got, c.want)
		}
	}
}

// The columns a sweep with unequal speeds and automatic warm-up needs: its
// speeds, the warm-up used, how the CI was made and the busiest server.
func TestRowNewColumns(t *testing.T) {
	cfg := Config{Servers: 10, Speeds: []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, Load: 0.7, Sizes: Exponential{M: 1},
		Policy: JSQ{D: 2}, Jobs: 20_000, Reps: 3, Seed: 5, WarmupAuto: true}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	row := NewRow(r)
	var sum float64
	for _, w := range r.WarmupJobs {
		sum += float64(w)
	}
	if want := sum / float64(len(r.WarmupJobs)); len(r.WarmupJobs) != 3 || row.WarmupTruncated != want {
		t.Errorf("warmup %v, want the mean MSER truncation %v of %v", row.WarmupTruncated, want, r.WarmupJobs)
	}
	if row.Speeds != "5@2,5@1" || rowField(t, row, "speeds") != "5@2,5@1" {
		t.Errorf("speeds %q", row.Speeds)
	}
	if row.CIMethod != "replications" || rowField(t, row, "ci_method") != r.CIMethod {
		t.Errorf("ci_method %q, want %q", row.CIMethod, r.CIMethod)
	}
	if want := slices.Max(r.ServerUtilization); row.MaxServerUtilization != want || want <= row.Utilization {
		t.Errorf("max_server_utilization %v, want %v (mean %v)", row.MaxServerUtilization, want, row.Utilization)
	}
	cfg.WarmupAuto, cfg.Warmup, cfg.Reps, cfg.Speeds = false, 1000, 1, nil
	r, err = Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if row := NewRow(r); row.Warmup != 1000 || row.WarmupTruncated != 1000 || row.Speeds != "10@1" || !strings.HasSuffix(row.CIMethod, "batch means") {
		t.Errorf("fixed warm-up: warmup %v speeds %q ci_method %q", row.Warmup, row.Speeds, row.CIMethod)
	}
}

// A trace's row carries the trace's offered load, not 0.
func TestRowTraceLoad(t *testing.T) {
	tr, err := ReadTrace(strings.NewReader("0,1\n0.5,2\n1.5,1\n2,1\n3,0.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(Config{Servers: 2, Trace: &tr, Policy: Random{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	row := NewRow(r)
	if want := tr.Load(2); row.Load != want || want <= 0 || rowField(t, row, "load") != fmtNum(want) {
		t.Errorf("trace row load %v (%q), want %v", row.Load, rowField(t, row, "load"), want)
	}
}

// Numbers are printed shortest-round-trip, and a law's SCV is the one it
// was given (or its closed form), not its moments' rounding.
func TestRowShortestNumbers(t *testing.T) {
	for _, c := range []struct {
		spec      string
		scv, mean string
	}{
		{"h2:mean=1,scv=10", "10.0", "1.0"}, {"h2:mean=1,scv=3", "3.0", "1.0"}, {"erlang:k=3,mean=1", "0.3333333333333333", "1.0"},
		{"pareto:alpha=2.5,mean=1", "0.8", "1.0"}, {"exp:mean=2", "1.0", "2.0"}, {"det:x=1.5", "0.0", "1.5"},
	} {
		law, err := ParseSizes(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		row := NewRow(Result{Config: Config{Sizes: law}})
		if got := rowField(t, row, "scv"); got != c.scv {
			t.Errorf("%s: scv %q, want %q", c.spec, got, c.scv)
		}
		if got := rowField(t, row, "size_mean"); got != c.mean {
			t.Errorf("%s: size_mean %q, want %q", c.spec, got, c.mean)
		}
	}
	row := Row{Load: 0.95, Refresh: 0, MeanWait: 1.0 / 3, ExactWait: math.NaN(), LimitWait: math.Inf(1)}
	for name, want := range map[string]string{"load": "0.95", "refresh": "0.0", "mean_wait": "0.3333333333333333", "exact_wait": "NaN", "limit_wait": "+Inf"} {
		if got := rowField(t, row, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// A list of a value per server or per dispatcher is written in full up to
// 200 bytes, else as its number and hash, as Config.Key gives it: 10^5
// distinct speeds were 588,895 bytes in one cell (10^6: 8.9 MB, more than
// Python's csv module takes).
func TestRowLongLists(t *testing.T) {
	const k, m = 100_000, 10_000
	speeds, weights := make([]float64, k), make([]float64, m)
	for i := range speeds {
		speeds[i] = float64(i + 1)
	}
	for i := range weights {
		weights[i] = float64(1 + i%7)
	}
	cfg := Config{Servers: k, Speeds: speeds, Dispatchers: m, DispatcherWeights: weights, Load: 0.5, Sizes: Exponential{M: 1},
		Policy: WeightedRoundRobin{Weights: Weights{Speed: true}}, Jobs: 1000}
	row := NewRow(Result{Config: cfg})
	other := slices.Clone(speeds)
	other[k-1]++
	for _, c := range []struct{ name, got, want, changed string }{
		{"speeds", row.Speeds, "100000 values #", (&Config{Servers: k, Speeds: other}).speedsKey()},
		{"dispatcher_weights", row.DispatcherWeights, "10000 values #", (&Config{DispatcherWeights: weights[1:]}).dispatcherWeightsKey()},
	} {
		if !strings.HasPrefix(c.got, c.want) || len(c.got) > maxListKey || c.got == c.changed || rowField(t, row, c.name) != c.got {
			t.Errorf("%s cell: %d bytes %.60q, want the number and hash %q... (a changed list: %q)", c.name, len(c.got), c.got, c.want, c.changed)
		}
	}
	if key := cfg.Key(); len(key) > 2000 || !strings.Contains(key, row.Speeds) || !strings.Contains(key, row.DispatcherWeights) {
		t.Errorf("Config.Key: %d bytes, want the cells' values", len(key))
	}
	cfg.Speeds, cfg.DispatcherWeights = []float64{2, 2, 1}, []float64{2, 1}
	cfg.Servers, cfg.Dispatchers = 3, 2
	if row := NewRow(Result{Config: cfg}); row.Speeds != "2@2,1@1" || row.DispatcherWeights != "2,1" {
		t.Errorf("short lists: speeds %q, dispatcher weights %q; want them in full", row.Speeds, row.DispatcherWeights)
	}
}

// A percentile added to its table without its Row fields stops the package
// at its start with every field to add, of its type and json name, and
// where; a field out of the table's order, or of another type than its
// column's, is named too.
func TestRowCheckNamesPercentileFields(t *testing.T) {
	fs := slices.Clone(fields)
	fs[slices.IndexFunc(fs, func(f Field) bool { return f.Name == "seed" })].kind = kindFloat
	if err, want := checkRow(fs, percentiles[:]), "lbsim: Row.Seed, the column seed of the field table (config_fields.go), is uint64: make it float64"; err == nil || err.Error() != want {
		t.Errorf("a float seed: error %v, want %s", err, want)
	}

	with := func(i int, p Percentile) []Percentile { return slices.Insert(slices.Clone(percentiles[:]), i, p) }
	for _, c := range []struct {
		ps   []Percentile
		want []string
	}{
		{with(nPercentiles, Percentile{"p9999", 0.9999}), []string{
			"lbsim: Row has no field for the column p9999_wait of the percentile table (stat_percentiles.go): add\n\tP9999Wait float64 `json:\"p9999_wait\"`\nto Row (result_row.go) after P999WaitCI95",
			"add\n\tP9999WaitCI95 float64 `json:\"p9999_wait_ci95\"`\nto Row (result_row.go) after P9999Wait",
			"add\n\tP9999Response float64 `json:\"p9999_response\"`\nto Row (result_row.go) after P999ResponseCI95",
			"add\n\tP9999ResponseCI95 float64 `json:\"p9999_response_ci95\"`\nto Row (result_row.go) after P9999Response",
			"lbsim: Row has no field for the column exact_p9999_wait of the percentile table (stat_percentiles.go): add\n\tExactP9999Wait float64 `json:\"exact_p9999_wait\"`\nto Row (result_row.go) after ExactP999Wait",
			"add\n\tExactP9999Response float64 `json:\"exact_p9999_response\"`\nto Row (result_row.go) after ExactP999Response",
		}},
		{with(2, Percentile{"p95", 0.95}), []string{
			"add\n\tP95Wait float64 `json:\"p95_wait\"`\nto Row (result_row.go) after P90WaitCI95",
			"add\n\tExactP95Wait float64 `json:\"exact_p95_wait\"`\nto Row (result_row.go) after ExactP90Wait",
		}},
		{with(0, Percentile{"p25", 0.25}), []string{
			"add\n\tP25Wait float64 `json:\"p25_wait\"`\nto Row (result_row.go) before P50Wait",
			"add\n\tExactP25Wait float64 `json:\"exact_p25_wait\"`\nto Row (result_row.go) before ExactP50Wait",
		}},
		{[]Percentile{percentiles[1], percentiles[0], percentiles[2], percentiles[3]}, []string{
			"lbsim: Row.P50Wait, the column p50_wait of the percentile table (stat_percentiles.go), is out of the table's order: move it after P90WaitCI95",
			"lbsim: Row.ExactP50Wait, the column exact_p50_wait of the percentile table (stat_percentiles.go), is out of the table's order: move it after ExactP90Wait",
		}},
	} {
		err := checkRow(fields, c.ps)
		if err == nil {
			t.Errorf("percentiles %v: no error", c.ps)
			continue
		}
		for _, want := range c.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("percentiles %v: error\n%v\nwant it to say\n%s", c.ps, err, want)
			}
		}
	}
}
