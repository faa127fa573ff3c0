package course

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

// Printed is one line of the handout's printed output: the R code's quantity
// (not the waiting time, see lbsim.Result.Handout) for RND, RR and LL-2 at one load.
type Printed struct {
	Rho    float64 `json:"rho"`
	Random float64 `json:"random"`
	RR     float64 `json:"rr"`
	LLd    float64 `json:"lld"`
}

// Value is the printed number of the policy labelled label ("RND", "RR", "LL-2").
func (p Printed) Value(label string) (float64, bool) {
	switch label {
	case "RND":
		return p.Random, true
	case "RR":
		return p.RR, true
	case "LL-2":
		return p.LLd, true
	}
	return math.NaN(), false
}

var printedHeader = []string{"rho", "random", "rr", "lld"}

// ReadPrinted reads the handout's table: a header "rho,random,rr,lld" and one
// line of four numbers per load. Errors name the line and the field.
func ReadPrinted(r io.Reader) ([]Printed, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(printedHeader)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("handout table: reading the header: %w", err)
	}
	if strings.Join(head, ",") != strings.Join(printedHeader, ",") {
		return nil, fmt.Errorf("handout table: header is %q, want %q", strings.Join(head, ","), strings.Join(printedHeader, ","))
	}
	var out []Printed
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("handout table: %w", err)
		}
		var v [4]float64
		for i, s := range rec {
			if v[i], err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
				return nil, fmt.Errorf("handout table line %d: %s=%q is not a number", line, printedHeader[i], s)
			}
		}
		out = append(out, Printed{Rho: v[0], Random: v[1], RR: v[2], LLd: v[3]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("handout table: no data lines after the header")
	}
	return out, nil
}

// PrintedPath is data/handout_2023.csv in the repository holding this package's source.
func PrintedPath() string {
	if _, file, _, ok := runtime.Caller(0); ok {
		return filepath.Join(filepath.Dir(file), "..", "..", "..", "data", "handout_2023.csv")
	}
	return filepath.Join("..", "data", "handout_2023.csv")
}

// LoadPrinted reads the handout's table from PrintedPath.
func LoadPrinted() ([]Printed, error) {
	f, err := os.Open(PrintedPath())
	if err != nil {
		return nil, fmt.Errorf("handout table: %w (it ships with the repository as data/handout_2023.csv)", err)
	}
	defer f.Close()
	return ReadPrinted(f)
}

// Beside is one policy at one load: the handout's printed number, our run of the
// same quantity, our true mean waiting time, the exact waiting time where
// theory gives it (NaN otherwise), and our run's warnings.
type Beside struct {
	Policy        string         `json:"policy"`
	Load          float64        `json:"load"`
	Printed       float64        `json:"handout_printed"`
	HandoutWait   float64        `json:"our_handout_measure"`
	HandoutCI95   float64        `json:"our_handout_measure_ci95"`
	MeanWait      float64        `json:"our_mean_wait"`
	MeanWaitCI95  float64        `json:"our_mean_wait_ci95"`
	Exact         float64        `json:"exact_mean_wait"`
	PrintedVsWait float64        `json:"printed_over_exact"`
	Warnings      lbsim.Warnings `json:"warnings"`
}

// CompareWithPrinted pairs every row with the printed line of the same load and
// policy (rows of other loads or policies are skipped). PrintedVsWait is
// Printed / Exact (NaN without theory).
func CompareWithPrinted(printed []Printed, rows []lbsim.Row) []Beside {
	var out []Beside
	for _, r := range rows {
		for _, p := range printed {
			v, ok := p.Value(r.Label)
			if !ok || math.Abs(p.Rho-r.Load) > 1e-9 {
				continue
			}
			out = append(out, Beside{
				Policy: r.Label, Load: r.Load, Printed: v,
				HandoutWait: r.HandoutWait, HandoutCI95: r.HandoutWaitCI95,
				MeanWait: r.MeanWait, MeanWaitCI95: r.MeanWaitCI95,
				Exact: r.ExactWait, PrintedVsWait: v / r.ExactWait, Warnings: r.Warnings,
			})
		}
	}
	return out
}
