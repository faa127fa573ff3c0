package lbsim_test

import (
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Traces: a first data row with a byte order mark, or a mistyped first row,
// is not taken as a header; extra columns are refused; real headers still
// are headers.
func TestTraceStrict(t *testing.T) {
	for _, tc := range []struct {
		csv     string
		jobs    int
		mention string
	}{
		{"\uFEFF0.5,1\n1,2\n", 2, ""},
		{"\uFEFFarrival,size\n0.5,1\n", 1, ""},
		{"arrival_time,size (ms)\n0,1\n", 1, ""},
		{"O.5,1\n1,2\n", 0, `arrival time "O.5" is not a number`},
		{"0.5,l\n1,2\n", 0, `size "l" is not a number`},
		{"0.5,1,7\n1,2,8\n", 0, "has 3 field(s)"},
		{"arrival,size,server\n0,1,3\n", 0, "has 3 field(s)"},
		{"NaN,size\n0,1\n", 0, `arrival time "NaN" is not a finite number`},
		{"NaN,1\n0,1\n", 0, `arrival time "NaN" is not a finite number`},
		{"0,1e999\n", 0, "out of range"},
	} {
		tr, err := lbsim.ReadTrace(strings.NewReader(tc.csv))
		switch {
		case tc.mention == "" && (err != nil || tr.Len() != tc.jobs):
			t.Errorf("%q: %d jobs, %v; want %d jobs", tc.csv, tr.Len(), err, tc.jobs)
		case tc.mention != "" && (err == nil || !strings.Contains(err.Error(), tc.mention)):
			t.Errorf("%q: %v, want an error saying %q", tc.csv, err, tc.mention)
		}
	}
}

// Trace fields go through the one parser; a first row of full-width digits
// is data (an error on line 1), not a header that drops a job (items 18, 19).
func TestTraceNumbers(t *testing.T) {
	for _, tc := range []struct{ csv, mention string }{
		{"0,1_0\n1,2\n", `size "1_0" is not a number: write a plain decimal`},
		{"0x1,1\n", `arrival time "0x1" is not a number: write a plain decimal`},
		{"0,+5\n", "plain decimal"},
		{"0,1e-400\n", "smallest magnitude"},
		{"１２,５\n13,5\n", "trace line 1"},
		{"0,5\n１,５\n", "trace line 2"}, {"ｔime,ｓize\n0,5\n", "trace line 1"},
	} {
		tr, err := lbsim.ReadTrace(strings.NewReader(tc.csv))
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("trace %q: %d jobs, %v; want an error saying %q", tc.csv, tr.Len(), err, tc.mention)
		}
	}
	// ASCII names are still a header.
	tr, err := lbsim.ReadTrace(strings.NewReader("arrival_time,size (s)\n0,1\n"))
	if err != nil || tr.Len() != 1 {
		t.Errorf("header arrival_time,size (s): %d jobs, %v", tr.Len(), err)
	}
}

// A trace line over the 1 MiB line limit and a folder given as the trace
// say what is wrong and what to do (item 23).
func TestTraceMessages(t *testing.T) {
	long := "0," + strings.Repeat("1", 2<<20) + "\n"
	_, err := lbsim.ReadTrace(strings.NewReader(long))
	if err == nil || strings.Contains(err.Error(), "token too long") || !strings.Contains(err.Error(), "longer than 1 MiB") {
		t.Errorf("a 2 MiB line: %v; want a message naming the 1 MiB line limit", err)
	}
	dir := t.TempDir()
	_, err = lbsim.LoadTrace(dir)
	if err == nil || !strings.Contains(err.Error(), "is a folder") || !strings.Contains(err.Error(), "give the trace CSV file") {
		t.Errorf("LoadTrace(folder): %v; want a message saying it is a folder", err)
	}
}
