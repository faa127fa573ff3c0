package lbsim_test

import (
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Spec strings go through the one parser: Go literal syntax is refused with
// a pointer to plain decimals, an underflow is not silently 0.
func TestHarden2_SpecNumbers(t *testing.T) {
	for _, tc := range []struct{ spec, mention string }{
		{"exp:mean=0x1p-1", "plain decimal"},
		{"exp:mean=1_0", "plain decimal"},
		{"exp:mean=+5", "plain decimal"},
		{"exp:mean=1e-400", "smallest magnitude"},
		{"modal:1,0x10", "plain decimal"},
		{"modal:1_0,2", "plain decimal"},
		{"modal:1,,2", "value #2 is empty"},
		{"modal:1,2,", "value #3 is empty"},
	} {
		if law, err := lbsim.ParseSizes(tc.spec); err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseSizes(%q) = %v, %v; want an error saying %q", tc.spec, law, err, tc.mention)
		}
	}
	if p, err := lbsim.ParsePolicy("ll:d=0x2"); err == nil || !strings.Contains(err.Error(), "plain decimal") {
		t.Errorf("ll:d=0x2 = %v, %v; want a plain-decimal error", p, err)
	}
	if law, err := lbsim.ParseSizes("exp:mean=2e0"); err != nil || law.Mean() != 2 {
		t.Errorf("exp:mean=2e0 = %v, %v", law, err)
	}
}

// Trace fields go through the one parser; a first row of full-width digits
// is data (an error on line 1), not a header that drops a job (items 18, 19).
func TestHarden2_TraceNumbers(t *testing.T) {
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
func TestHarden2_TraceMessages(t *testing.T) {
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

// SITA on one server: the message must not offer the empty range 1..0.
func TestHarden2_SITAOneServer(t *testing.T) {
	cfg := lbsim.Config{Servers: 1, Load: 0.5, Sizes: lbsim.TwoPoint{Xm: 1, XM: 1000, P: 0.004}, Policy: lbsim.SITA{C: 1}, Jobs: 1000}
	err := cfg.Validate()
	if err == nil || strings.Contains(err.Error(), "1..0") || !strings.Contains(err.Error(), "at least 2 servers") {
		t.Errorf("SITA with K=1: %v; want a message asking for at least 2 servers", err)
	}
}
