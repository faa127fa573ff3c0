package nbrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A notebook copied out of notebooks/ is refused before a kernel starts, with where notebooks
// must live and the command that puts it there; the notebooks in notebooks/ and in testdata
// (whose set-up cell climbs to the repository) and a notebook without a set-up cell pass.
func TestExecuteRefusesNotebookOutsideRepository(t *testing.T) {
	src, err := os.ReadFile("../../../notebooks/01-dispatching.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "01-dispatching.ipynb")
	if err := os.WriteFile(outside, src, 0o644); err != nil {
		t.Fatal(err)
	}
	repo, _ := filepath.Abs("../../..")
	_, err = Execute(context.Background(), outside, Options{})
	for _, want := range []string{"cannot import lbsim", "github.com/perfeval/lbsim", filepath.Dir(outside),
		"Notebooks must live in " + filepath.Join(repo, "notebooks") + "/", "cp " + outside + " " + filepath.Join(repo, "notebooks") + "/"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Execute(a notebook outside notebooks/) = %v, want an error with %q", err, want)
		}
	}
	for _, ok := range []string{"../../../notebooks/01-dispatching.ipynb", "testdata/good.ipynb", "testdata/panic.ipynb"} {
		if err := checkSetupCell(ok); err != nil {
			t.Errorf("%s: %v, want no refusal", ok, err)
		}
	}
}
