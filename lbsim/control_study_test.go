//go:build linux

package lbsim

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The control-variates study: half-width per CPU second and coverage of
// exact values, with and without Config.ControlVariates, on four families
// with exact mean waits (20 batch means, seeds 1..S, the same seeds and so
// the same sample paths for both). A run's CPU time is its thread's user
// plus system time (RUSAGE_THREAD, the run locked to its thread), not wall
// time: the machine is shared. The work-normalised variance is h^2 t (h the
// mean half-width, t the CPU seconds a run): its ratio, controlled over
// plain, below 1 means the controls pay for themselves. S is LBSIM_CV_SEEDS
// (unset: a 30-seed check of one family under -short too):
//
//	LBSIM_CV_SEEDS=100 go test -run TestControlVariatesStudy -v ./lbsim
//
// It measured, with 100 seeds (the summary in doc.go, "Control variates"):
//
//	family (exact value)                                   jobs  half-width plain/CV  CPU s plain/CV  coverage plain/CV  h^2 t ratio
//	RND K=10, handout's two-point sizes, load 0.7 (M/G/1)  2e6   77.1 / 55.8          0.062 / 0.070   0.96 / 0.94        0.59
//	RND K=10, H2 SCV 10, load 0.9 (M/G/1)                  1e6   4.57 / 3.63          0.040 / 0.044   0.93 / 0.92        0.69
//	LWL K=4, exponential, load 0.9 (M/M/4)                 1e6   0.097 / 0.075        0.111 / 0.114   0.92 / 0.91        0.61
//	RR K=4, exponential, load 0.9 (E_4/M/1)                1e6   0.229 / 0.160        0.031 / 0.034   0.94 / 0.96        0.55

type cvFamily struct {
	name string
	cfg  Config
}

func cvFamilies() []cvFamily {
	h2, err := NewH2Balanced(1, 10)
	if err != nil {
		panic(err)
	}
	exp := Exponential{M: 1}
	return []cvFamily{
		{"RND K=10 twopoint(1,1000,0.8) rho=0.7 (M/G/1)", Config{Servers: 10, Load: 0.7, Sizes: NewTwoPointBeta(1, 1000, 0.8), Policy: Random{}, Jobs: 2_000_000}},
		{"RND K=10 H2 scv=10 rho=0.9 (M/G/1)", Config{Servers: 10, Load: 0.9, Sizes: h2, Policy: Random{}, Jobs: 1_000_000}},
		{"LWL K=4 exp rho=0.9 (M/M/4)", Config{Servers: 4, Load: 0.9, Sizes: exp, Policy: LeastLoaded{}, Jobs: 1_000_000}},
		{"RR K=4 exp rho=0.9 (E_4/M/1)", Config{Servers: 4, Load: 0.9, Sizes: exp, Policy: RoundRobin{}, Jobs: 1_000_000}},
	}
}

// cvRun is one run: its estimate, the exact value and its CPU seconds.
type cvRun struct {
	est     Estimate
	exact   float64
	seconds float64
	method  string
}

// runCPU runs cfg on the calling goroutine's thread and measures its CPU time.
func runCPU(t testing.TB, cfg Config) cvRun {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() float64 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	start := cpu()
	rep, err := runReplication(&cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := aggregate(&cfg, []replication{rep})
	return cvRun{est: r.Wait, exact: r.Exact.Wait, seconds: cpu() - start, method: r.CIMethod}
}

// cvSummary is a family's runs of one method.
type cvSummary struct {
	half, seconds float64 // mean half-width, mean CPU seconds a run
	covered, n    int
	method        string
}

func summarizeCV(runs []cvRun) cvSummary {
	s := cvSummary{n: len(runs), method: runs[0].method}
	for _, r := range runs {
		s.half += r.est.CI95 / float64(len(runs))
		s.seconds += r.seconds / float64(len(runs))
		if math.Abs(r.est.Mean-r.exact) <= r.est.CI95 {
			s.covered++
		}
	}
	return s
}

func TestControlVariatesStudy(t *testing.T) {
	fams, seeds := cvFamilies(), 30
	if v := os.Getenv("LBSIM_CV_SEEDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("LBSIM_CV_SEEDS=%q: need a positive integer", v)
		}
		seeds = n
	} else {
		// The quick check: one family, shorter runs.
		fams = fams[3:]
		fams[0].cfg.Jobs = 100_000
	}
	lines := []string{"family\tmethod\thalf-width\tCPU s/run\tcoverage\th^2 t ratio"}
	for _, f := range fams {
		runs := [2][]cvRun{make([]cvRun, seeds), make([]cvRun, seeds)}
		forEach(2*seeds, runtime.GOMAXPROCS(0), func(i int) {
			cfg := f.cfg
			cfg.Seed, cfg.Workers, cfg.ControlVariates = uint64(i/2+1), 1, i%2 == 1
			runs[i%2][i/2] = runCPU(t, cfg)
		})
		plain, cv := summarizeCV(runs[0]), summarizeCV(runs[1])
		ratio := cv.half * cv.half * cv.seconds / (plain.half * plain.half * plain.seconds)
		for _, s := range []cvSummary{plain, cv} {
			lines = append(lines, fmt.Sprintf("%s\t%s\t%.4g\t%.3g\t%s\t%.3f", f.name, s.method, s.half, s.seconds, fmtCov(s.covered, s.n), ratio))
		}
		if _, hi := clopperPearson(cv.covered, cv.n); hi < 0.95 { // clearly below 95%
			t.Errorf("%s: controlled intervals cover the exact value in %d of %d runs", f.name, cv.covered, cv.n)
		}
		if cv.half >= plain.half {
			t.Errorf("%s: controlled half-width %.4g, plain %.4g: no gain", f.name, cv.half, plain.half)
		}
	}
	t.Logf("control variates, %d seeds per family:\n%s", seeds, strings.Join(lines, "\n"))
}
