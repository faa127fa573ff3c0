package lbsim

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// metricNames is the one table of Metrics, what compare pairs and figures
// plot by name: each a column of Row with its _ci95 beside it.
var metricNames = func() []string {
	out := []string{"mean_wait", "mean_response", "mean_slowdown"}
	for _, p := range percentiles {
		out = append(out, p.Name+"_wait", p.Name+"_response")
	}
	return out
}()

// Metrics are the names of the metrics a Row measures with an interval and
// per-unit values: mean_wait, mean_response, mean_slowdown (response over
// the job's own service time x/mu, Result.Slowdown), p50_wait,
// p50_response, ..., p999_response.
func Metrics() []string { return slices.Clone(metricNames) }

// CheckMetric says why name is not a metric (Metrics), naming the allowed.
func CheckMetric(name string) error {
	if slices.Contains(metricNames, name) {
		return nil
	}
	return fmt.Errorf("metric %q is not one lbsim measures with an interval: use one of %s", name, strings.Join(metricNames, ", "))
}

// Metric is the row's value of the metric name (Metrics) with its 95%
// half-width, and its per-unit values (nil when read from CSV).
func (r Row) Metric(name string) (Estimate, []float64, error) {
	if err := CheckMetric(name); err != nil {
		return Estimate{}, nil, err
	}
	v := reflect.ValueOf(r)
	return Estimate{Mean: v.FieldByIndex(columnField()[name].Index).Float(), CI95: v.FieldByIndex(columnField()[name+"_ci95"].Index).Float()},
		r.Units[name], nil
}

// MetricExact is the exact value of the metric name (Metrics) when theory
// knows it (exact_wait, exact_p99_response, ...), else NaN.
func (r Row) MetricExact(name string) float64 {
	switch name {
	case "mean_wait":
		return r.ExactWait
	case "mean_response":
		return r.ExactResponse
	case "mean_slowdown":
		return r.ExactSlowdown
	}
	if sf, ok := columnField()["exact_"+name]; ok && CheckMetric(name) == nil {
		return reflect.ValueOf(r).FieldByIndex(sf.Index).Float()
	}
	return math.NaN()
}
