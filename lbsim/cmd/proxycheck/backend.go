package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// served is what a backend records of one request: its id, the backend's
// index, when the request reached the backend (Recv), when its service
// started and ended (all since the run's clock origin), and the proxy worker
// that forwarded it (the X-Worker header, nginx's $pid; "" if none).
type served struct {
	ID               int
	Backend          int
	Recv, Start, End time.Duration
	Worker           string
}

// backend is one FCFS server on 127.0.0.1: it serves one request at a time,
// in the order the requests reached it, and holds each for its size by a
// deadline. A job's service starts at max(its arrival at the backend, the
// previous job's end deadline) and ends at start + size: the end is computed,
// not a sleep of the size, so a late wake-up delays only this job's reply,
// never the next job's start or end.
type backend struct {
	Index int
	Addr  string // host:port

	origin time.Time // the clock's origin: times are recorded as durations since it
	queue  chan *job
	srv    *http.Server
	ln     net.Listener
	stop   chan struct{} // closed to stop the serving goroutine
	done   chan struct{} // closed when the serving goroutine has stopped

	arrived atomic.Int64 // requests queued so far

	mu   sync.Mutex
	recs []served
}

type job struct {
	id     int
	size   time.Duration
	recv   time.Time
	worker string
	done   chan struct{}
}

// queueCap bounds the requests waiting at one backend; a run that would need
// more is far past any load this command offers.
const queueCap = 1 << 16

// startBackend listens on a free loopback port and serves until close.
func startBackend(index int, origin time.Time) (*backend, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("backend %d: listen on 127.0.0.1: %w", index, err)
	}
	b := &backend{Index: index, Addr: ln.Addr().String(), origin: origin,
		queue: make(chan *job, queueCap), ln: ln, stop: make(chan struct{}), done: make(chan struct{})}
	b.srv = &http.Server{Handler: b, ReadHeaderTimeout: 10 * time.Second}
	go b.serve()
	go func() {
		if err := b.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Printf("backend %d: %v\n", index, err)
		}
	}()
	return b, nil
}

// serve is the server: it takes the jobs in their order of arrival and ends
// each at its deadline.
func (b *backend) serve() {
	defer close(b.done)
	var prevEnd time.Time
	for {
		var j *job
		select {
		case j = <-b.queue:
		case <-b.stop:
			return
		}
		start := j.recv
		if prevEnd.After(start) {
			start = prevEnd
		}
		end := start.Add(j.size)
		if d := time.Until(end); d > 0 {
			time.Sleep(d)
		}
		prevEnd = end
		b.mu.Lock()
		b.recs = append(b.recs, served{ID: j.id, Backend: b.Index, Recv: j.recv.Sub(b.origin),
			Start: start.Sub(b.origin), End: end.Sub(b.origin), Worker: j.worker})
		b.mu.Unlock()
		close(j.done)
	}
}

// ServeHTTP queues a request GET /?id=N&us=SIZE (size in microseconds) and
// answers when its service has ended.
func (b *backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	recv := time.Now()
	q := r.URL.Query()
	id, err1 := strconv.Atoi(q.Get("id"))
	us, err2 := strconv.ParseInt(q.Get("us"), 10, 64)
	if err1 != nil || err2 != nil || us < 0 {
		http.Error(w, "want ?id=N&us=MICROSECONDS", http.StatusBadRequest)
		return
	}
	j := &job{id: id, size: time.Duration(us) * time.Microsecond, recv: recv,
		worker: r.Header.Get("X-Worker"), done: make(chan struct{})}
	select {
	case b.queue <- j:
		b.arrived.Add(1)
	default:
		http.Error(w, "queue full", http.StatusServiceUnavailable)
		return
	}
	<-j.done
	w.Header().Set("Connection", "close")
	w.Header().Set("X-Backend", strconv.Itoa(b.Index))
	_, _ = w.Write([]byte("ok\n"))
}

// take returns the records since the last take and forgets them.
func (b *backend) take() []served {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.recs
	b.recs = nil
	return out
}

// close stops accepting, lets the queued jobs finish (at most wait) and
// stops the server goroutine (a job in service ends first).
func (b *backend) close(wait time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_ = b.srv.Shutdown(ctx)
	_ = b.srv.Close()
	close(b.stop)
	<-b.done
}
