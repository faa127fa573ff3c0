package nbrun

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the repository root seen from this package's folder (lbsim/internal/nbrun).
const repoRoot = "../../.."

// TestNotebooks executes every notebooks/*.ipynb, exports its HTML report, checks the report
// and runs the notebook's entry in notebookChecks, if any. Notebooks run quick
// (LBSIM_QUICK=1) unless the caller set LBSIM_QUICK, write their CSV tables into a fresh
// LBSIM_OUT_DIR and cache results (nb.Cached) in a fresh LBSIM_CACHE_DIR unless that is set. Executed notebooks, reports and screenshots stay in $TMPDIR/lbsim-nbrun-tests-*/.
func TestNotebooks(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(repoRoot, "notebooks", "*.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		const msg = "no notebooks in notebooks/: nothing to execute"
		if os.Getenv("LBSIM_REQUIRE_NOTEBOOKS") == "1" {
			t.Log(msg)
			return
		}
		t.Skip(msg)
	}
	requireNotebooks(t)
	for name := range notebookChecks {
		if _, err := os.Stat(filepath.Join(repoRoot, "notebooks", name)); err != nil {
			t.Errorf("notebookChecks has an entry for %s, which is not in notebooks/", name)
		}
	}
	env := []string{}
	if _, set := os.LookupEnv("LBSIM_QUICK"); !set {
		env = append(env, "LBSIM_QUICK=1")
	}
	art := artifactDir(t)
	for _, path := range paths {
		name := filepath.Base(path)
		stem := strings.TrimSuffix(name, ".ipynb")
		t.Run(stem, func(t *testing.T) {
			outDir := t.TempDir()
			nbEnv := append(env[:len(env):len(env)], "LBSIM_OUT_DIR="+outDir)
			if _, set := os.LookupEnv("LBSIM_CACHE_DIR"); !set {
				// A fresh nb.Cached folder: cells of this run share results, but no result
				// computed by an earlier run (or by `make reports`) can stand in for this one.
				nbEnv = append(nbEnv, "LBSIM_CACHE_DIR="+t.TempDir())
			}
			res, err := Execute(context.Background(), path, Options{
				Env:    nbEnv,
				Output: filepath.Join(art, name),
			})
			if res != nil {
				t.Logf("%s: %d code cells in %v (executed copy %s)", name, res.Cells, res.Elapsed, res.Executed)
			}
			if err != nil {
				t.Fatal(err)
			}
			html := filepath.Join(art, stem+".html")
			if err := ExportHTML(res.Executed, html); err != nil {
				t.Fatal(err)
			}
			figs, err := CheckReport(html, filepath.Join(art, stem+".png"))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: report %s with %d figures", name, html, len(figs))
			if check, ok := notebookChecks[name]; ok {
				check(t, outDir)
			}
		})
	}
}
