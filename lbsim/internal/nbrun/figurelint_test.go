package nbrun

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/perfeval/lbsim/lbsim/plots"
)

// The figure lint over every figure every notebook draws: each notebook
// runs with plots.LintEnv naming a file of its own, to which plots.PNG and
// plots.GridPNG append each figure's lint; the report check fails on any
// defect, and on a report that holds more figures than the lint saw (the
// variable did not reach the kernel, or a figure bypassed plots).
var lintFiles = struct {
	sync.Mutex
	byStem map[string]string
}{byStem: map[string]string{}}

func init() {
	notebookEnv = append(notebookEnv, func(t *testing.T, stem string) []string {
		file := filepath.Join(t.TempDir(), "figure-lint.txt")
		lintFiles.Lock()
		lintFiles.byStem[stem] = file
		lintFiles.Unlock()
		return []string{plots.LintEnv + "=" + file}
	})
	reportChecks = append(reportChecks, checkFigureLint)
}

func checkFigureLint(t *testing.T, _ string, r *Report, _ PDF) {
	lintFiles.Lock()
	file := lintFiles.byStem[r.Name]
	lintFiles.Unlock()
	b, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("figure lint of %s: %v", r.Name, err)
	}
	figures, title := 0, ""
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "ok: "):
			figures++
		case strings.HasPrefix(line, "defects: "):
			figures++
			title = strings.TrimPrefix(line, "defects: ")
		case strings.HasPrefix(line, "\t"):
			t.Errorf("%s: figure %q: %s", r.Name, title, strings.TrimSpace(line))
		}
	}
	t.Logf("%s: figure lint saw %d figures, the report holds %d", r.Name, figures, r.Figures)
	if figures < r.Figures {
		t.Errorf("%s: the report holds %d figures but the figure lint (%s=%s) saw %d; does the kernel get the environment, or did a figure bypass plots.PNG?", r.Name, r.Figures, plots.LintEnv, file, figures)
	}
}
