package lbsim_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// IdleOfD is the policy of one's own of the package doc, the README and
// notebook 00 (TestDocPolicyIsTheExample keeps their copies equal to this
// one). It is registered (init below), so that every test of this package
// that goes through the registered policies runs it too.

// IdleOfD samples D servers and sends the job to the first idle one (no
// work left); when all are busy, to the first of the sample, a server
// drawn uniformly.
type IdleOfD struct{ D int }

func (p IdleOfD) String() string { return fmt.Sprintf("idle:d=%d", p.D) }

func (p IdleOfD) Pick(v *lbsim.View, x float64) int {
	ks := v.Sample(p.D, false)
	for _, k := range ks {
		if v.Workload(k) == 0 {
			return k
		}
	}
	return ks[0]
}

// Describe: Pick reads the workloads of D servers a job.
func (p IdleOfD) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Label: fmt.Sprintf("idle-of-%d", p.D), Reads: lbsim.Workload, D: p.D}
}

func (p IdleOfD) Validate(k int, _ lbsim.SizeLaw) error {
	if p.D < 1 || p.D > k {
		return fmt.Errorf("idle: d=%d is invalid: need 1 <= d <= K = %d; e.g. idle:d=2", p.D, k)
	}
	return nil
}

func init() {
	err := lbsim.RegisterPolicy(lbsim.PolicyType{Name: "idle", Params: []string{"d"}, Example: "idle:d=2",
		Summary: "idle of d: the first idle server among d sampled, else the first sampled",
		New: func(p lbsim.Params) (lbsim.Policy, error) {
			d, err := p.Int("d", 2)
			return IdleOfD{D: d}, err
		}})
	if err != nil {
		panic(err)
	}
}

// A policy of one's own runs like the built-in ones: idle-of-2 lands
// between random dispatch and LL-2 (exponential sizes, K=20, rho=0.9;
// M/M/1 waits 9), at LL-2's 4 messages a job (2 probes and 2 replies).
func ExamplePolicy() {
	for _, p := range []lbsim.Policy{lbsim.Random{}, IdleOfD{D: 2}, lbsim.LeastLoaded{D: 2}} {
		res, err := lbsim.Run(lbsim.Config{Servers: 20, Load: 0.9, Sizes: lbsim.Exponential{M: 1},
			Policy: p, Jobs: 200_000, Warmup: 20_000, Reps: 4, Seed: 7})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-9s mean wait %.1f, %v messages a job\n", res.Label, res.Wait.Mean, res.MessagesPerJob)
	}
	// Output:
	// RND       mean wait 8.9, 0 messages a job
	// idle-of-2 mean wait 4.4, 4 messages a job
	// LL-2      mean wait 1.2, 4 messages a job
}

// The same policy on a stale board: with Refresh > 0 the View's Workload is
// the board's value (refreshed every 5 time units), with Tally plus the
// dispatcher's own sends since the refresh. The policy's code is unchanged.
// On the board it sends its jobs to the servers idle at the refresh; with
// its tally a server it sent one to no longer looks idle, and it falls back
// on a random server, nearer RND's 8.9.
func ExamplePolicy_staleBoard() {
	for _, b := range []struct {
		refresh float64
		tally   bool
	}{{0, false}, {5, false}, {5, true}} {
		res, err := lbsim.Run(lbsim.Config{Servers: 20, Load: 0.9, Sizes: lbsim.Exponential{M: 1},
			Policy: IdleOfD{D: 2}, Refresh: b.refresh, Tally: b.tally, Jobs: 200_000, Warmup: 20_000, Reps: 4, Seed: 7})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("refresh %v, tally %-5v: mean wait %.1f\n", b.refresh, b.tally, res.Wait.Mean)
	}
	// Output:
	// refresh 0, tally false: mean wait 4.4
	// refresh 5, tally false: mean wait 5.5
	// refresh 5, tally true : mean wait 8.0
}

// A policy's spec is registered once (RegisterPolicy) and then parsed like
// a built-in one's, by ParsePolicy, the -policy flag and sweep files.
func ExampleRegisterPolicy() {
	p, err := lbsim.ParsePolicy("idle:d=3")
	fmt.Println(p, lbsim.Label(p), err)
	_, err = lbsim.Run(lbsim.Config{Servers: 2, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: p, Jobs: 1000})
	fmt.Println(err)
	// Output:
	// idle:d=3 idle-of-3 <nil>
	// idle: d=3 is invalid: need 1 <= d <= K = 2; e.g. idle:d=2
}

// The README and notebook 00 show IdleOfD as a policy of one's own: their
// copies are this file's, so that the code a reader copies is the code
// these examples run and every test of this package checks.
func TestDocPolicyIsTheExample(t *testing.T) {
	src, err := os.ReadFile("example_policy_test.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	want := strings.TrimSpace(s[strings.Index(s, "// IdleOfD samples D servers"):strings.Index(s, "func init()")])
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+want+"\n```") {
		t.Errorf("README.md's IdleOfD is not this file's:\n%s", want)
	}
	var nb struct {
		Cells []struct {
			ID     string   `json:"id"`
			Source []string `json:"source"`
		} `json:"cells"`
	}
	data, err := os.ReadFile("../notebooks/00-your-own-analysis.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range nb.Cells {
		found = found || strings.TrimSpace(strings.Join(c.Source, "")) == want
	}
	if !found {
		t.Errorf("notebook 00 has no cell with this file's IdleOfD:\n%s", want)
	}
}
