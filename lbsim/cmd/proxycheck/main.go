// Command proxycheck checks lbsim against real proxies: HAProxy and nginx
// from Debian's packages, run as plain processes on 127.0.0.1 with their own
// configuration files, in front of K FCFS backends, under open-loop Poisson
// traffic. Each run's recorded arrivals and sizes are replayed through lbsim
// with the policy and view that model the proxy's rule, and the table gives
// the measured and the replayed mean and p99 response and their ratios:
//
//	go run ./lbsim/cmd/proxycheck            # or: make proxies
//	go run ./lbsim/cmd/proxycheck -k 4,8 -loads 0.5,0.7,0.9 -n 5000
//
// It installs the packages haproxy and nginx when missing (apt-get update,
// apt-get install -y, as root or through sudo -n) without starting their
// system services (a policy-rc.d denies it during the install; the packages
// still enable their systemd units, which stay stopped), and runs the
// binaries directly: haproxy -f CONF -db, nginx -p DIR -c CONF -g 'daemon off;'.
//
// # What is measured
//
// The backends (backend.go) serve one request at a time in their order of
// arrival and end each at a computed deadline, max(arrival, previous end) +
// size, so a late wake-up does not lengthen the next job. The client
// (client.go) sends request i at its scheduled time on its own goroutine and
// connection. The measured response of a request is the client's, from the
// scheduled send time to the reply, minus the fixed overhead: the mean of
// response minus size over the requests that found their backend idle
// (proxy hops, loopback, send lag, wake-up lag), printed as "ovh".
//
// A second reading, "backend", takes each request's arrival at its backend
// and its service end: the dispatching rule alone, without the client's and
// the proxy's delays, which a busy machine makes large and bursty (the
// client's reading then carries them, the backend's does not; -nice -10 as
// root puts the check ahead of the machine's other work). Both readings
// replay their own arrivals through lbsim.
//
// The choice statistics come from the backends' records: round robin's
// largest deviation from n/K (exact when < 1), the share of requests sent to
// a backend with the fewest requests at that moment, and among ties which
// tied backend was chosen; nginx's worker split comes from its $pid, sent to
// the backends in a header.
//
// The whole check is bounded by -budget: a run that would end past it is
// skipped and said so. Every process started is stopped (SIGTERM to its
// process group, then SIGKILL) at the end, on error and on interrupt.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// options are the check's settings (the flags).
type options struct {
	Ks      []int
	Loads   []float64
	N       int           // requests per run
	Mean    time.Duration // mean job size
	SCV     float64       // squared coefficient of variation of the sizes: 1 exponential, > 1 H2
	Warm    float64       // share of each run's first requests left out of both sides
	Seed    uint64
	Budget  time.Duration // the whole check's wall time at most
	Only    string        // run only the setups whose name contains this
	Install bool          // install missing proxies
	Dump    string        // directory to write each run's requests into as CSV ("" = none)
}

func defaults() options {
	return options{Ks: []int{4}, Loads: []float64{0.5, 0.7, 0.9}, N: 3000, Mean: 10 * time.Millisecond,
		SCV: 1, Warm: 0.05, Seed: 1, Budget: 9 * time.Minute, Install: true}
}

func main() {
	o := defaults()
	ks := flag.String("k", "4", "numbers of backends K, comma-separated")
	loads := flag.String("loads", "0.5,0.7,0.9", "offered loads lambda E[X] / K, comma-separated (run in this order: the last ones are the first skipped by -budget)")
	flag.IntVar(&o.N, "n", o.N, "requests per run")
	flag.DurationVar(&o.Mean, "mean", o.Mean, "mean job size (large against the proxy's overhead, ~0.2 ms)")
	flag.Float64Var(&o.SCV, "scv", o.SCV, "squared coefficient of variation of the sizes: 1 exponential, > 1 hyperexponential H2 of balanced means")
	flag.Float64Var(&o.Warm, "warm", o.Warm, "share of each run's first requests left out of the comparison (lbsim's warm-up)")
	flag.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the arrivals and sizes (one workload per K and load, shared by every proxy)")
	flag.DurationVar(&o.Budget, "budget", o.Budget, "wall time of the whole check at most: runs that would end later are skipped")
	flag.StringVar(&o.Only, "only", "", "run only the setups whose name contains this (e.g. haproxy, least_conn, w4)")
	flag.StringVar(&o.Dump, "dump", "", "write each run's requests as CSV files into this directory")
	out := flag.String("out", "", "write the table (one row a run, with the date, the machine and the proxies' versions) as CSV to this file")
	nice := flag.Int("nice", 0, "run this command and the proxies at this niceness (-20..19; negative, ahead of the machine's other work, needs root)")
	noInstall := flag.Bool("no-install", false, "do not install missing proxies")
	flag.Parse()
	o.Install = !*noInstall
	var err error
	if o.Ks, err = parseList(*ks, strconv.Atoi); err != nil {
		fail(fmt.Errorf("-k %q: %w", *ks, err))
	}
	if o.Loads, err = parseList(*loads, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); err != nil {
		fail(fmt.Errorf("-loads %q: %w", *loads, err))
	}
	if *nice != 0 {
		if err := renice(*nice); err != nil {
			fail(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	begin := time.Now()
	rows, err := check(ctx, o, os.Stdout)
	stopAll()
	if len(rows) > 0 {
		fmt.Println()
		printTable(os.Stdout, rows)
		if *out != "" {
			if err := writeCSV(*out, rows, begin); err != nil {
				fail(err)
			}
			fmt.Printf("\nthe table is in %s\n", *out)
		}
	}
	fmt.Printf("\nwall time %.1f s\n", time.Since(begin).Seconds())
	if errors.Is(err, context.Canceled) {
		err = errors.New("interrupted: every process it started is stopped, its temporary files removed")
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	stopAll()
	fmt.Fprintln(os.Stderr, "proxycheck:", err)
	os.Exit(1)
}

func parseList[T int | float64](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if v <= 0 {
			return nil, fmt.Errorf("%v is not positive", v)
		}
		out = append(out, v)
	}
	return out, nil
}

// row is one run: a setup at K and a load, measured and replayed.
type row struct {
	Setup      setup
	K, N, Warm int
	Load       float64
	// Client is the run as the client saw it: each request arriving at its
	// scheduled send time, its response the client's minus the overhead; Backend as the
	// backends saw it: arriving when it reached its backend, responding at
	// its service end (the dispatching rule alone, without the proxy's and
	// the client's delays).
	Client, Backend comparison
	Overhead        float64 // ms
	NIdle           int     // requests behind the overhead
	SendLag         float64 // mean lateness of the sends, ms
	Choices         choices
	Requests        []request
	Version         string // the proxy's, its first line of -vv or -V
}

// check runs every setup whose proxy is installed at every K and load,
// within the budget, and returns the rows done; progress goes to log.
func check(ctx context.Context, o options, log io.Writer) ([]row, error) {
	defer stopAll()
	if o.N < 20 || o.Warm < 0 || o.Warm >= 0.5 || o.Mean <= 0 || o.SCV < 1 {
		return nil, fmt.Errorf("want -n >= 20 (got %d), 0 <= -warm < 0.5 (got %g), -mean > 0 (got %v), -scv >= 1 (got %g)",
			o.N, o.Warm, o.Mean, o.SCV)
	}
	begin := time.Now()
	bins, err := ensureProxies(o.Install, log)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "haproxy: %s\nnginx:   %s\n", orNone(bins.HAProxy, bins.HAProxyVersion), orNone(bins.Nginx, bins.NginxVersion))
	fmt.Fprintf(log, "machine: %d cores, load average %s at the start\n", runtime.NumCPU(), loadAvg())
	defer func() { fmt.Fprintf(log, "machine: load average %s at the end\n", loadAvg()) }()
	var todo []setup
	for _, s := range setups {
		if strings.Contains(s.Name(), o.Only) && bins.has(s.Proxy) {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return nil, fmt.Errorf("no setup matches -only %q among the installed proxies", o.Only)
	}
	dir, err := os.MkdirTemp("", "proxycheck-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755) // nginx's workers run as nobody under root
	law := sizeLaw{Mean: o.Mean.Seconds(), SCV: o.SCV}
	origin := time.Now()
	var rows []row
	run := 0
	for _, k := range o.Ks {
		var bs []*backend
		var addrs []string
		for i := range k {
			b, err := startBackend(i, origin)
			if err != nil {
				return rows, err
			}
			defer b.close(5 * time.Second)
			bs = append(bs, b)
			addrs = append(addrs, b.Addr)
		}
		for li, load := range o.Loads {
			if load >= 1 {
				return rows, fmt.Errorf("load %g: want < 1", load)
			}
			w := poissonWorkload(o.N, k, load, law, o.Seed+uint64(1000*k+li))
			for _, s := range todo {
				if err := ctx.Err(); err != nil {
					return rows, err
				}
				est := w.At[len(w.At)-1] + 3*time.Second
				if left := o.Budget - time.Since(begin); est > left {
					fmt.Fprintf(log, "skipped %s K=%d load %g: it takes about %.0f s, %.0f s of the budget left\n",
						s.Name(), k, load, est.Seconds(), left.Seconds())
					continue
				}
				run++
				rdir := filepath.Join(dir, fmt.Sprintf("run%02d", run))
				if err := os.Mkdir(rdir, 0o755); err != nil {
					return rows, err
				}
				r, err := runOne(ctx, bins, s, bs, addrs, w, load, o.Warm, rdir)
				if err != nil {
					return rows, fmt.Errorf("%s K=%d load %g: %w", s.Name(), k, load, err)
				}
				c, b := r.Client, r.Backend
				fmt.Fprintf(log, "%-36s K=%d load %.2f (trace %.3f): client mean %.2f/%.2f ms = %.3f, p99 %.2f/%.2f ms = %.3f; backend mean %.3f, p99 %.3f; ovh %.3f ms (%d idle), send lag %.3f ms; lbsim %s\n",
					s.Name(), k, load, c.Load, c.MeasMean, c.Sim.Mean, c.RatioMean(), c.MeasP99, c.Sim.P99, c.RatioP99(),
					b.RatioMean(), b.RatioP99(), r.Overhead, r.NIdle, r.SendLag, c.Sim.Spec)
				r.Version = bins.HAProxyVersion
				if s.Proxy == "nginx" {
					r.Version = bins.NginxVersion
				}
				rows = append(rows, r)
				if o.Dump != "" {
					name := fmt.Sprintf("%s_K%d_load%g.csv", strings.ReplaceAll(s.Name(), " ", "_"), k, load)
					if err := dump(filepath.Join(o.Dump, name), r.Requests); err != nil {
						return rows, err
					}
				}
			}
		}
	}
	return rows, nil
}

func orNone(path, version string) string {
	if path == "" {
		return "not installed"
	}
	return path + ": " + version
}

// runOne runs setup s in front of the backends under workload w.
func runOne(ctx context.Context, bins binaries, s setup, bs []*backend, addrs []string, w workload, load, warmShare float64, dir string) (row, error) {
	// The port was free when picked; should another process take it before
	// the proxy binds it, the proxy exits at start: try another port.
	var p *proc
	var port int
	var err error
	for try := 1; ; try++ {
		if p, port, err = startProxy(ctx, bins, s, dir, addrs); err == nil || try == 3 || ctx.Err() != nil {
			break
		}
		fmt.Printf("%v; trying another port\n", err)
	}
	if err != nil {
		return row{}, err
	}
	for _, b := range bs {
		b.take() // nothing of an earlier run
	}
	start := time.Now().Add(50 * time.Millisecond)
	sends := sendAll(ctx, fmt.Sprintf("http://127.0.0.1:%d", port), w, start)
	p.stop(3 * time.Second)
	if err := ctx.Err(); err != nil {
		return row{}, err
	}
	var recs []served
	for _, b := range bs {
		recs = append(recs, b.take()...)
	}
	reqs, err := join(sends, recs, bs[0].origin.Sub(start))
	if err != nil {
		return row{}, err
	}
	k := len(bs)
	warm := int(warmShare * float64(len(reqs)))
	ovh, nIdle := overhead(reqs[warm:])
	if nIdle == 0 {
		return row{}, errors.New("no measured request found its backend idle: no overhead measured")
	}
	lag := 0.0
	for _, r := range reqs[warm:] {
		lag += r.Sent - r.Scheduled
	}
	ch := choiceStats(reqs, k)
	client, err := compare(reqs, k, s, warmShare, ch.Workers,
		func(r request) float64 { return r.Scheduled }, func(r request) float64 { return r.Done - r.Scheduled - ovh })
	if err != nil {
		return row{}, err
	}
	back, err := compare(reqs, k, s, warmShare, ch.Workers,
		func(r request) float64 { return r.Recv }, func(r request) float64 { return r.End - r.Recv })
	if err != nil {
		return row{}, err
	}
	return row{Setup: s, K: k, N: len(reqs), Warm: warm, Load: load, Client: client, Backend: back,
		Overhead: ovh, NIdle: nIdle, SendLag: lag / float64(len(reqs)-warm), Choices: ch, Requests: reqs}, nil
}

// printTable writes the comparison, then the choice statistics.
func printTable(out io.Writer, rows []row) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "proxy\talgorithm\tprocs\tK\tload\ttrace load\trequests\tmean ms\tp99 ms\tlbsim policy\tlbsim mean\tlbsim p99\tmean ratio\tp99 ratio\tovh ms\tbackend mean ratio\tbackend p99 ratio\t")
	for _, r := range rows {
		procs := fmt.Sprint(r.Setup.Workers)
		if r.Setup.Proxy == "nginx" && r.Setup.Workers > 1 {
			if r.Setup.Zone {
				procs += " zone"
			} else {
				procs += " own"
			}
		}
		c := r.Client
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.2f\t%.3f\t%d\t%.2f\t%.2f\t%s\t%.2f\t%.2f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n",
			r.Setup.Proxy, r.Setup.Algo, procs, r.K, r.Load, c.Load, r.N-r.Warm, c.MeasMean, c.MeasP99,
			r.Setup.Policy, c.Sim.Mean, c.Sim.P99, c.RatioMean(), c.RatioP99(), r.Overhead, r.Backend.RatioMean(), r.Backend.RatioP99())
	}
	tw.Flush()
	fmt.Fprintln(out, "\nchoices (all requests of each run): counts per backend; rr dev = max |count - n/K| (exact < 1);")
	fmt.Fprintln(out, "least = share sent to a backend with the fewest requests then; among ties: oldest = to the tied")
	fmt.Fprintln(out, "backend whose count changed longest ago (HAProxy's rule), lowest = to the lowest index, swrr = to the one nginx's")
	fmt.Fprintln(out, "smooth weighted round robin among the tied picks, chance = a uniform pick's expectation; workers = requests per nginx worker,")
	fmt.Fprintln(out, "same w = share of requests through the same worker as the request before them (1/M if drawn independently)")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "setup\tK\tload\tcounts\trr dev\trr exact\tleast\tties\toldest\tlowest\tswrr\tchance\tworkers\tsame w\t")
	for _, r := range rows {
		c := r.Choices
		exact := "no"
		if c.RRDev < 1 {
			exact = "yes"
		}
		workers, same := "-", "-"
		if len(c.Workers) > 0 {
			workers, same = joinInts(c.Workers), fmt.Sprintf("%.3f", c.SameWorker)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%s\t%.2f\t%s\t%.3f\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%s\t\n", r.Setup.Name(), r.K, r.Load,
			joinInts(c.Counts), c.RRDev, exact, c.Least, c.Ties, c.Oldest, c.Lowest, c.SWRR, c.Chance, workers, same)
	}
	tw.Flush()
}

// writeCSV writes the table, a run a row: the setup, the client's and the
// backends' readings beside lbsim's replays, the choice statistics, and
// where and when it ran (the proxies' versions, the machine's cores and
// load average, each run's end time).
func writeCSV(path string, rows []row, begin time.Time) error {
	var b strings.Builder
	b.WriteString("proxy,algorithm,workers,zone,k,load,trace_load,requests,lbsim_policy," +
		"mean_ms,p99_ms,lbsim_mean_ms,lbsim_p99_ms,mean_ratio,p99_ratio,overhead_ms," +
		"backend_mean_ms,backend_p99_ms,lbsim_backend_mean_ms,lbsim_backend_p99_ms,backend_mean_ratio,backend_p99_ratio," +
		"rr_dev,least,ties,oldest,lowest,swrr,chance,same_worker,version,cores,load_average_at_end,started\n")
	for _, r := range rows {
		c, k, ch := r.Client, r.Backend, r.Choices
		fmt.Fprintf(&b, "%s,%s,%d,%t,%d,%g,%.4f,%d,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%.4f,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%d,%s,%s\n",
			r.Setup.Proxy, r.Setup.Algo, r.Setup.Workers, r.Setup.Zone, r.K, r.Load, c.Load, r.N-r.Warm, csvField(r.Setup.Policy),
			c.MeasMean, c.MeasP99, c.Sim.Mean, c.Sim.P99, c.RatioMean(), c.RatioP99(), r.Overhead,
			k.MeasMean, k.MeasP99, k.Sim.Mean, k.Sim.P99, k.RatioMean(), k.RatioP99(),
			ch.RRDev, ch.Least, ch.Ties, ch.Oldest, ch.Lowest, ch.SWRR, ch.Chance, ch.SameWorker,
			csvField(r.Version), runtime.NumCPU(), strings.ReplaceAll(loadAvg(), " ", "/"), begin.UTC().Format(time.RFC3339))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// csvField is s as a CSV field: quoted, as encoding/csv quotes, when it holds
// a comma or a quote (a policy with options, jsq:d=2,replace=1).
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// dump writes one run's requests as CSV, times in ms since the run's start.
func dump(path string, reqs []request) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("id,scheduled,sent,done,size,backend,recv,start,end,worker\n")
	for i, r := range reqs {
		fmt.Fprintf(&b, "%d,%.4f,%.4f,%.4f,%.4f,%d,%.4f,%.4f,%.4f,%s\n", i, r.Scheduled, r.Sent, r.Done, r.Size,
			r.Backend, r.Recv, r.Start, r.End, r.Worker)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// loadAvg is the machine's 1, 5 and 15 minute load averages (/proc/loadavg):
// other work on the machine delays the proxies, the client and the backends'
// replies, what the overhead and the ratios then carry.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
