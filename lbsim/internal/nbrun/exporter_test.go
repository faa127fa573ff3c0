package nbrun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExporterIsNbconvert: the warm exporter writes the page `jupyter nbconvert --to html`
// writes, byte for byte; a file that is no notebook fails with nbconvert's reason and leaves
// the exporter working; an exporter killed, as a crash would, is replaced on the next export.
// Not parallel: no other export runs while it kills.
func TestExporterIsNbconvert(t *testing.T) {
	requireNotebooks(t)
	dir := t.TempDir()
	nb := smallNotebook(t, dir, "## Answer\n\nYes: $W = \\rho/(1-\\rho)$ when $m = 1$.")
	if err := jupyter(context.Background(), dir, nil, "nbconvert", "--to", "html", "--output-dir", dir, "--output", "app", nb); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "app.html"))
	if err != nil {
		t.Fatal(err)
	}
	export := func(src string) ([]byte, error) {
		t.Helper()
		dst := filepath.Join(dir, "warm.html")
		os.Remove(dst)
		if err := nbconvertExport(context.Background(), src, dst); err != nil {
			return nil, err
		}
		return os.ReadFile(dst)
	}
	for round := range 2 {
		got, err := export(nb)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: the exporter's page (%d bytes) differs from nbconvert's (%d bytes)", round, len(got), len(want))
		}
	}
	first := sharedExporter.p
	notNb := filepath.Join(dir, "not-a-notebook.ipynb")
	if err := writeFile(notNb, "{ not json"); err != nil {
		t.Fatal(err)
	}
	if _, err := export(notNb); err == nil || !strings.Contains(err.Error(), "nbconvert:") {
		t.Errorf("export of a file that is no notebook: err = %v, want nbconvert's reason", err)
	}
	if sharedExporter.p != first {
		t.Error("a notebook that fails to convert replaced the exporter")
	}
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	if got, err := export(nb); err != nil || !bytes.Equal(got, want) || sharedExporter.p == first {
		t.Errorf("export after the exporter died: err = %v, same page %v, same exporter %v; want a new exporter and the page",
			err, bytes.Equal(got, want), sharedExporter.p == first)
	}
}
