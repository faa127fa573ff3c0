package nbrun

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// requireNotebooks skips the test when Jupyter, the gonb kernel or Chromium is missing, or fails
// it when LBSIM_REQUIRE_NOTEBOOKS=1 (as `make test` sets), so that CI cannot pass by skipping.
func requireNotebooks(t *testing.T) {
	t.Helper()
	if err := ready(); err != nil {
		if os.Getenv("LBSIM_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("notebook tests required (LBSIM_REQUIRE_NOTEBOOKS=1) but cannot run: %v", err)
		}
		t.Skipf("skipping notebook test: %v (set LBSIM_REQUIRE_NOTEBOOKS=1 to make this a failure)", err)
	}
}

// ready is Ready, asked once per test process: it starts Python (jupyter kernelspec list, about
// 1.5 CPU-seconds), and the tools do not change while the tests run.
var ready = sync.OnceValue(Ready)

// artifactDir returns this test run's folder for executed notebooks, reports and screenshots:
// unique per run, so that concurrent runs (two clones, two helpers) never read each other's
// files, and kept after a failed run (TestMain), so that the failure can be inspected.
func artifactDir(t *testing.T) string {
	t.Helper()
	dir, err := artifacts()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

var artifacts = sync.OnceValues(func() (string, error) {
	return os.MkdirTemp("", "lbsim-nbrun-tests-")
})

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

func decodeFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

// suiteSettings are the LBSIM_ variables this suite reads from the caller's shell; the kernels
// it starts see no other (see TestMain).
var suiteSettings = []string{"LBSIM_QUICK", "LBSIM_CACHE_DIR", "LBSIM_REQUIRE_NOTEBOOKS", "LBSIM_REPORTS"}

// TestMain runs the tests without the caller's other LBSIM_ variables, which every kernel and
// notebook program would inherit: a shell with LBSIM_JOBS exported would run the notebook checks
// at another size than the one they were written for. It then stops the browser the tests
// shared and removes the artifact folder when every test passed; after a failure it stays, and
// its path is in the test log.
func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LBSIM_") && !slices.Contains(suiteSettings, name) {
			fmt.Fprintf(os.Stderr, "nbrun tests: %s is not passed to the notebooks (the suite reads only %s)\n", name, strings.Join(suiteSettings, ", "))
			os.Unsetenv(name)
		}
	}
	code := m.Run()
	StopChromium()
	if dir, err := artifacts(); err == nil {
		if code == 0 {
			os.RemoveAll(dir)
		} else {
			fmt.Fprintf(os.Stderr, "nbrun: executed notebooks, reports and screenshots kept in %s\n", dir)
		}
	}
	os.Exit(code)
}

// samePixels decodes two PNG files' bytes and reports whether they have the same size and the
// same colour at every pixel (Chromium's encoder may differ in bytes for the same image).
func samePixels(t *testing.T, a, b []byte) bool {
	t.Helper()
	ia, errA := png.Decode(bytes.NewReader(a))
	ib, errB := png.Decode(bytes.NewReader(b))
	if errA != nil || errB != nil {
		t.Fatalf("decoding screenshots: %v, %v", errA, errB)
	}
	if ia.Bounds() != ib.Bounds() {
		return false
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				t.Logf("first difference at (%d, %d): %v vs %v", x, y, ia.At(x, y), ib.At(x, y))
				return false
			}
		}
	}
	return true
}
