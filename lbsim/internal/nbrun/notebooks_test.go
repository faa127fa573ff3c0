package nbrun

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// repoRoot is the repository root seen from this package's folder (lbsim/internal/nbrun).
const repoRoot = "../../.."

// noAnswer lists the notebooks that ask without answering: the explorer is a tool.
var noAnswer = map[string]bool{"08-explorer.ipynb": true}

// notebookEnv adds environment variables to each notebook's run, and reportChecks check each
// notebook's published report (r) and its PDF after the notebook's own checks; executed is the
// executed notebook. Register them from your own file with an init function, so that each check
// lives in the file named after it.
var (
	notebookEnv  []func(t *testing.T, stem string) []string
	reportChecks []func(t *testing.T, executed string, r *Report, pdf PDF)
)

// TestNotebooks executes every notebooks/*.ipynb, writes its reports as `make reports` does
// ([Publish]: report view, page with code, PDF), runs every report check ([Report.Check]: in
// Chromium offline from a folder outside the repository, and the PDF) and the notebook's entry in
// notebookChecks, if any; then it writes the index of the reports and checks it offline with its
// links. Notebooks run quick (LBSIM_QUICK=1) unless the caller set LBSIM_QUICK, write their CSV
// tables into a fresh LBSIM_OUT_DIR and cache results (nb.Cached) in a fresh LBSIM_CACHE_DIR unless
// that is set (notebook 01 always in a fresh one). Executed notebooks, reports and screenshots stay
// in $TMPDIR/lbsim-nbrun-tests-*/. The notebooks run in parallel, as many at once as go test's
// -parallel (GOMAXPROCS by default: each run is a kernel compiling and a simulation running, so one
// a core), and so beside this package's other parallel tests. Notebook 01 then runs again on the
// cache its run filled, and the two reports must read the same (checkIndependentOfCache).
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
	t.Parallel()
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
	var (
		mu    sync.Mutex // guards index, which the parallel subtests fill
		index []IndexEntry
	)
	// The index once every notebook's subtest has finished (they run after this function returns).
	t.Cleanup(func() {
		sort.Slice(index, func(i, j int) bool { return index[i].Notebook < index[j].Notebook })
		indexPath := filepath.Join(art, "index.html")
		if err := WriteIndex(indexPath, index, os.Getenv("LBSIM_QUICK") != "0"); err != nil {
			t.Error(err)
			return
		}
		if _, err := CheckOffline(indexPath, 0, true); err != nil {
			t.Error(err)
		}
	})
	for _, path := range paths {
		name := filepath.Base(path)
		stem := strings.TrimSuffix(name, ".ipynb")
		t.Run(stem, func(t *testing.T) {
			t.Parallel()
			outDir := filepath.Join(art, stem) // the tables, linked from the index
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				t.Fatal(err)
			}
			nbEnv := append(env[:len(env):len(env)], "LBSIM_OUT_DIR="+outDir)
			for _, add := range notebookEnv {
				nbEnv = append(nbEnv, add(t, stem)...)
			}
			if _, set := os.LookupEnv("LBSIM_CACHE_DIR"); !set || stem == cacheCheckNotebook {
				// A fresh nb.Cached folder: cells of this run share results, but no result
				// computed by an earlier run (or by `make reports`) can stand in for this one.
				// cacheCheckNotebook computes every result whatever the caller set: its run
				// is the computed one of checkIndependentOfCache.
				nbEnv = append(nbEnv, "LBSIM_CACHE_DIR="+t.TempDir())
			}
			entry := IndexEntry{Notebook: "notebooks/" + name, RanAt: time.Now()}
			defer func() {
				mu.Lock()
				index = append(index, entry)
				mu.Unlock()
			}()
			res, err := Execute(context.Background(), path, Options{
				Env:    nbEnv,
				Output: filepath.Join(art, name),
			})
			entry.Err = err
			if res != nil {
				t.Logf("%s: %d code cells in %v (executed copy %s)", name, res.Cells, res.Elapsed, res.Executed)
			}
			if err != nil {
				t.Fatal(err)
			}
			entry.Elapsed = res.Elapsed
			r, err := Publish(res.Executed, art, stem)
			entry.Report, entry.Err = r, err
			if err != nil {
				t.Fatal(err)
			}
			entry.Tables, _ = filepath.Glob(filepath.Join(outDir, "*.csv"))
			if r.AnswerHTML == "" && !noAnswer[name] {
				t.Errorf("%s states no answer that the index can show: open its last markdown cell with ## Answer (or ## Conclusions), or start it with **Answer.**", name)
			}
			if err := r.Check(filepath.Join(art, stem+".png")); err != nil {
				t.Fatal(err)
			}
			pdf, err := ReadPDF(r.PDF)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: report %s with %d figures, PDF %d pages", name, r.View, r.Figures, pdf.Pages)
			if stem == "01-dispatching" { // markdown, math, tables and figures: the pruned styles draw them alike
				checkPrunedStyles(t, res.Executed, r.Full, art)
			}
			if check, ok := notebookChecks[name]; ok {
				check(t, outDir)
			}
			for _, check := range reportChecks {
				check(t, res.Executed, r, pdf)
			}
			if stem == cacheCheckNotebook {
				t.Run("independent-of-cache", func(t *testing.T) { checkIndependentOfCache(t, path, nbEnv, res, r) })
			}
		})
	}
}
