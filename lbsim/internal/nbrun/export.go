package nbrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// exportTimeout bounds one nbconvert HTML export; it takes about a second.
const exportTimeout = 5 * time.Minute

// ExportHTML converts the executed notebook executedNb into the HTML page htmlPath (parent
// folders are created) with every cell, code included. The page is self-contained: figures are
// data URIs (nbconvert embeds image/png outputs), math is typeset into inline SVG and no script
// remains (see [selfContain]); it opens offline in any browser.
func ExportHTML(executedNb, htmlPath string) error {
	return export(executedNb, htmlPath, false)
}

// ExportReportView is [ExportHTML] without the code: markdown, outputs, figures and tables,
// which is what a reader of a report wants (nbconvert's --no-input).
func ExportReportView(executedNb, htmlPath string) error {
	return export(executedNb, htmlPath, true)
}

func export(executedNb, htmlPath string, noInput bool) error {
	src, err := filepath.Abs(executedNb)
	if err != nil {
		return fmt.Errorf("export %s: %w", executedNb, err)
	}
	dst, err := filepath.Abs(htmlPath)
	if err != nil {
		return fmt.Errorf("export %s: report path %s: %w", executedNb, htmlPath, err)
	}
	if !strings.HasSuffix(dst, ".html") {
		return fmt.Errorf("export %s: report path %q must end in .html", executedNb, htmlPath)
	}
	tmp, err := os.MkdirTemp("", "nbrun-export-")
	if err != nil {
		return fmt.Errorf("export %s: %w", executedNb, err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	defer cancel()
	args := []string{"nbconvert", "--to", "html", "--output-dir", tmp, "--output", "export"}
	if noInput {
		args = append(args, "--no-input")
	}
	if err := jupyter(ctx, filepath.Dir(src), nil, append(args, src)...); err != nil {
		return fmt.Errorf("export %s: %w", executedNb, err)
	}
	if err := selfContain(filepath.Join(tmp, "export.html"), dst); err != nil {
		return fmt.Errorf("export %s: %w", executedNb, err)
	}
	return nil
}
