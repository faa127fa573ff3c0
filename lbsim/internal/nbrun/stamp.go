package nbrun

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// Inputs are what a notebook's report depends on, as hashes: when none changed, the report
// would come out the same, so cmd/nbreports keeps the last one instead of running the notebook
// again (see [Kept]). Results are not an input of their own: they are a function of the code,
// the notebook, the mode, the environment and the data (a result's cache key is its
// configuration and lbsim.CodeVersion, and runs are seeded).
type Inputs struct {
	Notebook string `json:"notebook"` // SHA-256 of the notebook file's bytes
	// Code is the SHA-256 of the module's Go sources that a notebook compiles: every non-test
	// .go file under lbsim/ (the core, whose hash is lbsim.CodeVersion, and nb, plots, frame,
	// ...; nbrun too, which makes the reports) and go.mod and go.sum (gonum's version).
	Code string `json:"code"`
	Data string `json:"data"` // SHA-256 of every file under data/, names and contents
	Mode string `json:"mode"` // "quick" (LBSIM_QUICK=1) or "full"
	// Env holds the LBSIM_* variables set (LBSIM_JOBS changes runs), but for the run log's.
	Env []string `json:"env,omitempty"`
	// Tools are the versions of what runs and exports the notebook: the Go toolchain, the
	// GoNB kernel binary (its SHA-256), Debian's nbconvert, nbclient, jupyter-client,
	// Chromium, MathJax and poppler.
	Tools string `json:"tools"`
}

// ReportInputs hashes the inputs of the notebook nbPath's report. The notebook lives in the
// repository's notebooks/ folder (checkSetupCell): the module is the folder above.
func ReportInputs(nbPath string, quick bool) (Inputs, error) {
	abs, err := filepath.Abs(nbPath)
	if err != nil {
		return Inputs{}, err
	}
	root := filepath.Dir(filepath.Dir(abs))
	var in Inputs
	if in.Notebook, err = hashFiles(filepath.Dir(abs), abs); err != nil {
		return in, err
	}
	code := []string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}
	src, err := filesUnder(filepath.Join(root, "lbsim"), func(p string) bool {
		return strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go")
	})
	if err != nil {
		return in, err
	}
	if in.Code, err = hashFiles(root, append(code, src...)...); err != nil {
		return in, err
	}
	data, err := filesUnder(filepath.Join(root, "data"), func(string) bool { return true })
	if err != nil {
		return in, err
	}
	if in.Data, err = hashFiles(root, data...); err != nil {
		return in, err
	}
	in.Mode = "full"
	if quick {
		in.Mode = "quick"
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "LBSIM_") && !strings.HasPrefix(kv, "LBSIM_RUN_LOG=") && !strings.HasPrefix(kv, "LBSIM_REQUIRE_NOTEBOOKS=") {
			if quick && strings.HasPrefix(kv, "LBSIM_QUICK=") {
				continue // the mode says it
			}
			in.Env = append(in.Env, kv)
		}
	}
	sort.Strings(in.Env)
	in.Tools, err = toolVersions()
	return in, err
}

// filesUnder lists the regular files under dir for which keep is true, sorted; no folder is none.
func filesUnder(dir string, keep func(string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && keep(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// hashFiles is the SHA-256 of the files' names (relative to root, so that a file moved or
// renamed changes it) and contents; a missing file hashes as missing.
func hashFiles(root string, paths ...string) (string, error) {
	h := sha256.New()
	for _, p := range paths {
		name, err := filepath.Rel(root, p)
		if err != nil {
			name = p
		}
		name = filepath.ToSlash(name)
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(h, "%s\x00missing\x00", name)
			continue
		}
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00", name)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// toolVersions is read once per process: `go env GOVERSION`, the gonb kernel binary's hash and
// dpkg's versions of the Debian packages that run and export notebooks.
var toolVersions = sync.OnceValues(func() (string, error) {
	var b strings.Builder
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	fmt.Fprintf(&b, "go=%s\n", strings.TrimSpace(string(out)))
	if argv, err := gonbKernel(); err == nil {
		sum, err := hashOne(argv[0])
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "gonb=%s\n", sum)
	}
	// dpkg-query lists the packages it knows and fails for the others: keep what it printed.
	out, _ = exec.Command("dpkg-query", "-W", "-f", "${Package}=${Version}\n",
		"jupyter-nbconvert", "python3-nbconvert", "python3-nbclient", "python3-jupyter-client",
		"chromium", "libjs-mathjax", "poppler-utils").Output()
	b.Write(out)
	return b.String(), nil
})

// Stamp is the record, beside a report that was written whole, of its inputs and of its
// files' hashes: OUT/.NAME.stamp.json. [WriteStamp] writes it after a successful export,
// [RemoveStamp] removes it before a notebook runs, so that a failed or partial export is
// never kept.
type Stamp struct {
	Inputs Inputs            `json:"inputs"`
	Made   time.Time         `json:"made"`  // when the notebook ran
	Files  map[string]string `json:"files"` // report files, relative to OUT, and their SHA-256
	// Checked is set when the report also passed [Report.Check] (nbreports -check).
	Checked bool `json:"checked,omitempty"`
}

func stampPath(outDir, name string) string {
	return filepath.Join(outDir, "."+name+".stamp.json")
}

// RemoveStamp removes a report's stamp: the report is being made again.
func RemoveStamp(outDir, name string) error {
	err := os.Remove(stampPath(outDir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// WriteStamp records that the report name in outDir was written whole from inputs in, at
// made: the report's files (see [Report.files]) and tables, with their hashes.
func WriteStamp(outDir, name string, in Inputs, made time.Time, paths []string, checked bool) error {
	s := Stamp{Inputs: in, Made: made, Files: map[string]string{}, Checked: checked}
	for _, p := range paths {
		sum, err := hashOne(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(outDir, p)
		if err != nil {
			return err
		}
		s.Files[filepath.ToSlash(rel)] = sum
	}
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	return files.Replace(stampPath(outDir, name), append(data, '\n'), nil)
}

func hashOne(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Kept tells whether the report name in outDir can be kept instead of running its notebook
// again: its stamp records the same inputs, every file it lists is there with the hash it
// had, and the index (indexPath's manifest) lists the report as whole, not failed; with
// checked, the report must also have passed [Report.Check]. It returns when the kept report's
// notebook ran; why says what changed otherwise ("" when there was no report to keep).
func Kept(indexPath, name string, in Inputs, checked bool) (made time.Time, why string, ok bool) {
	outDir := filepath.Dir(indexPath)
	data, err := os.ReadFile(stampPath(outDir, name))
	if err != nil {
		if exists(filepath.Join(outDir, name+".html")) {
			return made, "its last report is not stamped whole (a failed or stopped run, or an older nbreports)", false
		}
		return made, "", false
	}
	var s Stamp
	if err := json.Unmarshal(data, &s); err != nil {
		return made, "its stamp cannot be read", false
	}
	switch old := s.Inputs; {
	case old.Notebook != in.Notebook:
		return made, "the notebook changed", false
	case old.Code != in.Code:
		return made, "lbsim's code changed", false
	case old.Data != in.Data:
		return made, "data/ changed", false
	case old.Mode != in.Mode:
		return made, fmt.Sprintf("the last report was a %s run", old.Mode), false
	case !slices.Equal(old.Env, in.Env):
		return made, "the LBSIM_ variables changed", false
	case old.Tools != in.Tools:
		return made, "the tools' versions changed", false
	}
	if checked && !s.Checked {
		return made, "it was not checked (-check)", false
	}
	for rel, sum := range s.Files {
		if got, err := hashOne(filepath.Join(outDir, filepath.FromSlash(rel))); err != nil || got != sum {
			return made, rel + " changed or is missing", false
		}
	}
	dir, err := filepath.Abs(outDir)
	if err != nil {
		return made, "", false
	}
	entries, err := readManifest(strings.TrimSuffix(indexPath, filepath.Ext(indexPath))+".json", dir)
	if err != nil {
		return made, "the index cannot be read", false
	}
	for _, e := range entries {
		if e.Report != nil && e.Report.Name == name && filepath.Dir(e.Report.View) == dir {
			if e.Err != nil || !e.FailedAt.IsZero() {
				return made, "the index lists its last run as failed", false
			}
			return s.Made, "", true
		}
	}
	return made, "the index does not list it", false
}

// files lists a report's files: the pages, the PDF and the students' files.
func (r *Report) files() []string {
	out := []string{r.View, r.Full, r.PDF}
	if r.Students != nil {
		out = append(out, r.Students.files()...)
	}
	return out
}

// Files lists a report's files (the students' too) and the tables, for [WriteStamp].
func (e IndexEntry) Files() []string {
	var out []string
	if e.Report != nil {
		out = e.Report.files()
	}
	return append(out, e.Tables...)
}
