package frame

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// WriteCSV over a symlink writes the link's target and keeps the link (it
// used to rename over the link, leaving the target's old content); a name
// in a missing folder's place that is a file says so (issue 25, item 1).
func TestWriteCSVThroughSymlink(t *testing.T) {
	df := dataframe.New(series.New([]float64{1.5, 2}, series.Float, "x"))
	dir := t.TempDir()
	target := filepath.Join(dir, "table.csv")
	os.WriteFile(target, []byte("old\n"), 0o644)
	link := filepath.Join(dir, "link.csv")
	os.Symlink(target, link)
	if err := WriteCSV(df, link, true); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Error("WriteCSV replaced the symlink by a regular file")
	}
	if b, _ := os.ReadFile(target); string(b) != "x\n1.5\n2.0\n" {
		t.Errorf("the target holds %q", b)
	}
	os.Mkdir(filepath.Join(dir, "folder.csv"), 0o755)
	if err := WriteCSV(df, filepath.Join(dir, "folder.csv"), true); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("WriteCSV onto a folder: %v", err)
	}
}
