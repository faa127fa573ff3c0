package nb

import (
	"bytes"
	"image/png"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder captures what would be sent to the notebook.
type recorder struct {
	lastPNG []byte // the last PNG displayed
	mu      sync.Mutex
	updates []string // updateHTML contents, in order
	ids     map[string]bool
	shown   []string // displayHTML contents
	pngs    int
	events  []string // "update", "html", "png" and "sync", in order
}

// event logs one call to the front end; the caller holds r.mu.
func (r *recorder) event(kind string) { r.events = append(r.events, kind) }

// fakeNotebook makes the package believe it runs under GoNB for one test.
func fakeNotebook(t *testing.T) *recorder {
	r := &recorder{ids: map[string]bool{}}
	saved := frontEnd
	frontEnd.isNotebook = true
	frontEnd.updateHTML = func(id, h string) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.ids[id] = true
		r.updates = append(r.updates, h)
		r.event("update")
	}
	frontEnd.displayHTML = func(h string) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.shown = append(r.shown, h)
		r.event("html")
	}
	frontEnd.displayPNG = func(png []byte) { r.mu.Lock(); r.pngs++; r.lastPNG = png; r.event("png"); r.mu.Unlock() }
	frontEnd.sync = func() { r.mu.Lock(); r.event("sync"); r.mu.Unlock() }
	t.Cleanup(func() { frontEnd = saved })
	return r
}

// fakeClock is a clock advanced by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestProgressThrottledInPlaceUpdates(t *testing.T) {
	r := fakeNotebook(t)
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := NewProgress("sweep <RND>", 100)
	p.now = clock.now
	p.start, p.shown = clock.now(), clock.now()
	for i := 0; i < 100; i++ { // 100 steps of 10 ms: 1 s
		clock.add(10 * time.Millisecond)
		p.Add(1)
	}
	// One initial rendering plus at most one per 200 ms.
	if n := len(r.updates); n < 5 || n > 6 {
		t.Errorf("%d in-place updates over 1 s, want 5-6 (throttled to 5 a second)", n)
	}
	if len(r.ids) != 1 {
		t.Errorf("updates went to %d display ids, want 1 (updated in place)", len(r.ids))
	}
	last := r.updates[len(r.updates)-1]
	if !strings.Contains(last, "sweep &lt;RND&gt;") || !strings.Contains(last, "<progress") {
		t.Errorf("bar HTML lacks the escaped label or the <progress> element:\n%s", last)
	}
	p.Done()
	p.Done()
	p.Add(5)
	// A cached result shows no bar, so a computed one must leave nothing either (issue 22).
	if got, want := r.updates[len(r.updates)-1], `<div class="lbsim-progress"></div>`; got != want {
		t.Errorf("Done left %q in place of the bar, want it cleared to %q", got, want)
	}
	if len(r.ids) != 1 || len(r.shown) != 0 {
		t.Errorf("Done used %d display ids and %d new outputs; want the bar's id only", len(r.ids), len(r.shown))
	}
	if p.Count() != 100 {
		t.Errorf("Count after Done and a late Add = %d, want 100", p.Count())
	}
}

func TestProgressETA(t *testing.T) {
	fakeNotebook(t)
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := NewProgress("x", 100)
	p.now = clock.now
	p.start = clock.now()
	clock.add(10 * time.Second)
	p.Add(25)
	// 25 steps in 10 s: 75 more at the same rate take 30 s.
	if got := p.html(); !strings.Contains(got, "25/100 (25%)") || !strings.Contains(got, "elapsed 10s, about 30s left") {
		t.Errorf("progress text:\n%s\nwant 25/100 (25%%), elapsed 10s, about 30s left", got)
	}
	unknown := NewProgress("y", 0)
	unknown.Add(7)
	if got := unknown.html(); strings.Contains(got, "<progress") || !strings.Contains(got, "y 7, elapsed") {
		t.Errorf("unknown total shows %s; want the count without a bar", got)
	}
}

func TestProgressConcurrentOutsideNotebook(t *testing.T) {
	// Under go test there is no notebook and stderr is not a terminal:
	// nothing is displayed, and concurrent Adds are all counted.
	if frontEnd.isNotebook {
		t.Skip("running inside a notebook")
	}
	p := NewProgress("parallel", 8000)
	addConcurrently(p, 8, 1000)
	p.Done()
	if p.Count() != 8000 {
		t.Errorf("Count = %d after 8 x 1000 concurrent Adds, want 8000", p.Count())
	}
}

func TestProgressConcurrentInNotebook(t *testing.T) {
	r := fakeNotebook(t)
	p := NewProgress("parallel", 4000)
	addConcurrently(p, 4, 1000)
	p.Done()
	if p.Count() != 4000 {
		t.Errorf("Count = %d after 4 x 1000 concurrent Adds, want 4000", p.Count())
	}
	if got := r.updates[len(r.updates)-1]; strings.Contains(got, "4000") {
		t.Errorf("Done left %q under the cell, want the bar cleared", got)
	}
}

// addConcurrently calls p.Add(1) each times from each of n goroutines.
func addConcurrently(p *Progress, n, each int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				p.Add(1)
			}
		}()
	}
	wg.Wait()
}

// lastPNGSize is the size in pixels of the last PNG displayed.
func (r *recorder) lastPNGSize(t *testing.T) (w, h int) {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(r.lastPNG))
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Width, cfg.Height
}
