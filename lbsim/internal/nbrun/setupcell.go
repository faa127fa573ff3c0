package nbrun

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// setupUse finds the folder that a notebook's set-up cell (package nb, "Importing lbsim in a
// notebook") adds to its Go workspace, relative to the notebook's folder: `go work use .
// "${GONB_DIR}/.."`, and the module it requires.
var (
	setupUse     = regexp.MustCompile(`go work use \. "?\$\{GONB_DIR\}/([^"\s]*)"?`)
	setupRequire = regexp.MustCompile(`-require=([^@\s]+)@`)
	moduleLine   = regexp.MustCompile(`(?m)^module\s+"?([^"\s]+)"?\s*$`)
)

// maxNotebook bounds the notebook read for its set-up cell; a notebook with outputs saved
// holds its figures (a few MB).
const maxNotebook = 256 << 20

// checkSetupCell refuses, before a kernel starts, a notebook whose set-up cell cannot find the
// repository from where the notebook lives (a notebook copied out of notebooks/): GoNB would
// then ask the module proxy for the repository module, which fails with "403 Forbidden ...
// This module version is not available" after half a minute. A notebook without a set-up cell
// imports no lbsim package and may live anywhere.
func checkSetupCell(nbPath string) error {
	data, err := files.ReadRegular(nbPath, maxNotebook, "notebook")
	if err != nil {
		return err
	}
	var nb struct {
		Cells []struct {
			CellType string    `json:"cell_type"`
			Source   multiline `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return fmt.Errorf("notebook %s is not a valid notebook JSON: %w", nbPath, err)
	}
	for _, c := range nb.Cells {
		m := setupUse.FindStringSubmatch(string(c.Source))
		if c.CellType != "code" || m == nil {
			continue
		}
		dir := filepath.Dir(nbPath)
		repo := filepath.Join(dir, filepath.FromSlash(m[1]))
		module := "" // any, when the cell requires none
		if r := setupRequire.FindStringSubmatch(string(c.Source)); r != nil {
			module = r[1]
		}
		if declares(repo, module) {
			return nil
		}
		where := "the repository's notebooks/ folder"
		if root := findRepo(module); root != "" {
			where = filepath.Join(root, "notebooks") + string(filepath.Separator)
		}
		return fmt.Errorf("notebook %s cannot import lbsim from where it is: its set-up cell takes the module %s from ${GONB_DIR}/%s, the folder %s, which holds no go.mod of it (GoNB would ask the module proxy, which refuses). Notebooks must live in %s: copy it there (cp %s %s) and run that copy",
			nbPath, cmp.Or(module, "lbsim"), m[1], repo, where, nbPath, where)
	}
	return nil
}

// findRepo is the nearest folder at or above the working directory whose go.mod declares
// module, or "".
func findRepo(module string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for !declares(dir, module) {
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return dir
}

// declares tells whether dir/go.mod declares module (any module when module is "").
func declares(dir, module string) bool {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	got := moduleLine.FindSubmatch(gomod)
	return got != nil && (module == "" || string(got[1]) == module)
}
