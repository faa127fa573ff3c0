package nbrun

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// requireNotebooks skips the test when Jupyter, the gonb kernel or Chromium is missing, or fails
// it when LBSIM_REQUIRE_NOTEBOOKS=1 (as `make test` sets), so that CI cannot pass by skipping.
func requireNotebooks(t *testing.T) {
	t.Helper()
	if err := Ready(); err != nil {
		if os.Getenv("LBSIM_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("notebook tests required (LBSIM_REQUIRE_NOTEBOOKS=1) but cannot run: %v", err)
		}
		t.Skipf("skipping notebook test: %v (set LBSIM_REQUIRE_NOTEBOOKS=1 to make this a failure)", err)
	}
}

// artifactDir returns a folder that outlives the test for executed notebooks, reports and
// screenshots, so that a failure can be inspected.
func artifactDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "lbsim-nbrun-tests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

func decodeFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}
