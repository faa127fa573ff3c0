package nb

import (
	"io"
	"os"
	"testing"
)

// stderrOf runs f with os.Stderr redirected to a pipe and returns what f
// (and its goroutines, which f must wait for) wrote there.
func stderrOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	out := make(chan string)
	go func() { b, _ := io.ReadAll(r); out <- string(b) }()
	defer func() { os.Stderr = old }()
	f()
	w.Close()
	return <-out
}
