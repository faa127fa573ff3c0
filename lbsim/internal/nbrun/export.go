package nbrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// exportTimeout bounds one HTML export; nbconvert takes about a second.
const exportTimeout = 5 * time.Minute

// ExportHTML converts the executed notebook executedNb into the HTML report htmlPath (parent
// folders are created). nbconvert's HTML exporter embeds image/png outputs as data URIs, so the
// report is a single self-contained file.
func ExportHTML(executedNb, htmlPath string) error {
	src, err := filepath.Abs(executedNb)
	if err != nil {
		return fmt.Errorf("export %s: %w", executedNb, err)
	}
	dst, err := filepath.Abs(htmlPath)
	if err != nil {
		return fmt.Errorf("export %s: report path %s: %w", executedNb, htmlPath, err)
	}
	if !strings.HasSuffix(dst, ".html") {
		return fmt.Errorf("export %s: report path %q must end in .html (nbconvert appends it otherwise)", executedNb, htmlPath)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("export %s: %w", executedNb, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	defer cancel()
	err = jupyter(ctx, filepath.Dir(src), nil, "nbconvert", "--to", "html",
		"--output-dir", filepath.Dir(dst), "--output", strings.TrimSuffix(filepath.Base(dst), ".html"), src)
	if err != nil {
		return fmt.Errorf("export %s: %w", executedNb, err)
	}
	if _, err := os.Stat(dst); err != nil {
		return fmt.Errorf("export %s: nbconvert wrote no report: %w", executedNb, err)
	}
	return nil
}
