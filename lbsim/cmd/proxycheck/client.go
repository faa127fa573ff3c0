package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// workload is one run's open-loop traffic: request i is sent at At[i] after
// the run's start with a job of size Size[i].
type workload struct {
	At, Size []time.Duration
}

// poissonWorkload draws n requests with exponential gaps at rate lambda =
// load K / mean (load = lambda E[X] / K) and sizes from law, rounded to the
// microsecond (the unit the request carries, so the replay sees the sizes
// the backends held), 1 us at least.
func poissonWorkload(n, k int, load float64, law sizeLaw, seed uint64) workload {
	rng := rand.New(rand.NewPCG(seed, 0x70726f7879))
	rate := load * float64(k) / law.mean() // per second
	w := workload{At: make([]time.Duration, n), Size: make([]time.Duration, n)}
	t := 0.0
	for i := range n {
		t += rng.ExpFloat64() / rate
		w.At[i] = time.Duration(t*1e6) * time.Microsecond
		// at least 1 us: lbsim takes sizes > 0 only
		w.Size[i] = max(time.Duration(law.draw(rng)*1e6), 1) * time.Microsecond
	}
	return w
}

// sizeLaw is the law of the job sizes, in seconds: exponential (scv 1) or
// a balanced-means hyperexponential H2 (scv > 1).
type sizeLaw struct {
	Mean, SCV float64
}

func (l sizeLaw) mean() float64 { return l.Mean }

// draw is one size. H2 with balanced means (each branch carries half the
// mean): p1 = (1 + sqrt((c2-1)/(c2+1))) / 2, rate_i = 2 p_i / mean.
func (l sizeLaw) draw(rng *rand.Rand) float64 {
	if l.SCV <= 1 {
		return l.Mean * rng.ExpFloat64()
	}
	p1 := (1 + math.Sqrt((l.SCV-1)/(l.SCV+1))) / 2
	p := p1
	if rng.Float64() >= p1 {
		p = 1 - p1
	}
	return rng.ExpFloat64() * l.Mean / (2 * p)
}

func (l sizeLaw) String() string {
	if l.SCV <= 1 {
		return fmt.Sprintf("exp:mean=%gms", l.Mean*1e3)
	}
	return fmt.Sprintf("h2:mean=%gms,scv=%g", l.Mean*1e3, l.SCV)
}

// sent is what the client records of one request: its scheduled send time
// (its arrival), the actual send time and when the reply was read, since the
// run's clock origin; Err is "" on a 200 reply.
type sent struct {
	At, Sent, Done time.Duration
	Size           time.Duration
	Backend        string // the X-Backend reply header
	Err            string
}

// sendAll sends the workload to url at its scheduled times, each request on
// its own goroutine and its own connection (no keep-alive, nothing waits for
// a free connection), and returns what it saw of every request. start is the
// run's clock origin: request i is due at start + w.At[i].
func sendAll(ctx context.Context, url string, w workload, start time.Time) []sent {
	tr := &http.Transport{DisableKeepAlives: true, Proxy: nil, MaxIdleConns: -1}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 120 * time.Second}
	out := make([]sent, len(w.At))
	var wg sync.WaitGroup
	for i := range w.At {
		due := start.Add(w.At[i])
		if d := time.Until(due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			for ; i < len(out); i++ {
				out[i] = sent{At: w.At[i], Size: w.Size[i], Err: "interrupted"}
			}
			break
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i] = send(ctx, client, fmt.Sprintf("%s/job?id=%d&us=%d", url, i, w.Size[i].Microseconds()), start)
			out[i].At, out[i].Size = w.At[i], w.Size[i]
		}(i)
	}
	wg.Wait()
	return out
}

func send(ctx context.Context, client *http.Client, url string, start time.Time) sent {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return sent{Err: err.Error()}
	}
	req.Close = true
	var s sent
	s.Sent = time.Since(start)
	resp, err := client.Do(req)
	if err != nil {
		s.Err = err.Error()
		return s
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	s.Done = time.Since(start)
	s.Backend = resp.Header.Get("X-Backend")
	if resp.StatusCode != http.StatusOK {
		s.Err = resp.Status
	}
	return s
}
