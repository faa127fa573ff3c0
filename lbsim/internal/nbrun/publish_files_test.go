package nbrun

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// A second export of a notebook on a disk that fills up leaves the first export's three files
// whole, and an export into a fresh folder leaves no report at all: never a page cut short
// beside an older PDF. The index is replaced whole or not at all, too.
func TestPublishFullDisk(t *testing.T) {
	requireNotebooks(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "reports")
	first, err := Publish(smallNotebook(t, dir, "## Answer\n\nThe first export."), out, "small")
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(out, "index.html")
	if err := WriteIndex(index, []IndexEntry{{Notebook: "small.ipynb", Report: first}}, false); err != nil {
		t.Fatal(err)
	}
	set := []string{first.View, first.Full, first.PDF, index}
	old := map[string][]byte{}
	for _, p := range set {
		if old[p], err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	second := smallNotebook(t, dir, "## Answer\n\nThe second export.")
	full := int64(len(old[first.Full]))
	// The disk fills within the report view, after the page with code is written (a disk full
	// within the first file is files' TestBatchFullDisk).
	for _, room := range []int64{full + int64(len(old[first.View]))/2} {
		restore := files.SimulateFullDisk(room)
		_, err := Publish(second, out, "small")
		var ierr error
		if err != nil {
			ierr = WriteIndex(index, []IndexEntry{{Notebook: "small.ipynb", Err: err}}, false)
		}
		restore()
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("room for %d bytes: Publish err = %v, want no space left", room, err)
		}
		if !errors.Is(ierr, syscall.ENOSPC) {
			t.Errorf("room for %d bytes: WriteIndex err = %v, want no space left", room, ierr)
		}
		for _, p := range set {
			if now, _ := os.ReadFile(p); !bytes.Equal(now, old[p]) {
				t.Errorf("room for %d bytes: %s has %d bytes, want the first export's %d", room, filepath.Base(p), len(now), len(old[p]))
			}
		}
		if left, _ := filepath.Glob(filepath.Join(out, ".*.tmp-*")); len(left) != 0 {
			t.Errorf("room for %d bytes: temporary files left: %v", room, left)
		}
	}
	fresh := filepath.Join(dir, "fresh")
	restore := files.SimulateFullDisk(full + int64(len(old[first.View]))/2)
	_, err = Publish(second, fresh, "small")
	restore()
	if err == nil {
		t.Error("Publish into a fresh folder on a full disk succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(fresh, "*small*")); len(left) != 0 {
		t.Errorf("a failed export into a fresh folder left %v", left)
	}
}

// fakeReport is a report in dir whose view exists, with a title the index shows.
func fakeReport(t *testing.T, dir, name, title string) *Report {
	t.Helper()
	r := &Report{Name: name, View: filepath.Join(dir, name+".html"), Full: filepath.Join(dir, name+"-code.html"),
		PDF: filepath.Join(dir, name+".pdf"), Summary: Summary{Title: title, TitleHTML: title,
			QuestionHTML: "<p><strong>Question.</strong> Q of " + title + "</p>"}}
	for _, p := range []string{r.View, r.Full, r.PDF} {
		if err := os.WriteFile(p, []byte(title), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// The index lists every notebook exported into its folder: exports one after another, a
// notebook exported again (one entry, the latest), and exports at once all end up listed; a
// report removed from the folder leaves the index.
func TestIndexMerges(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.html")
	titles := func() []string {
		page, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, part := range strings.Split(string(page), "<h2>")[1:] {
			got = append(got, part[:strings.Index(part, "</h2>")])
		}
		return got
	}
	for _, name := range []string{"02-b", "01-a", "03-c"} {
		if err := WriteIndex(index, []IndexEntry{{Notebook: "notebooks/" + name + ".ipynb", Report: fakeReport(t, dir, name, "T"+name)}}, true); err != nil {
			t.Fatal(err)
		}
	}
	again := IndexEntry{Notebook: "notebooks/02-b.ipynb", Report: fakeReport(t, dir, "02-b", "T02-b again"), Elapsed: 7 * time.Second}
	if err := WriteIndex(index, []IndexEntry{again}, false); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(titles()), "[T01-a T02-b again T03-c]"; got != want {
		t.Errorf("after three exports and one again: index lists %s, want %s", got, want)
	}
	page, _ := os.ReadFile(index)
	if n := strings.Count(string(page), "<strong>quick run</strong>"); n != 2 || strings.Contains(string(page), "quick runs") {
		t.Errorf("two quick runs among three: %d marked quick run, header says quick runs: %v", n, strings.Contains(string(page), "quick runs"))
	}
	if err := os.Remove(filepath.Join(dir, "03-c.html")); err != nil {
		t.Fatal(err)
	}
	const at = 12
	var wg sync.WaitGroup
	errs := make([]error, at)
	for i := range at {
		name := fmt.Sprintf("1%02d", i)
		r := fakeReport(t, dir, name, "T"+name)
		wg.Go(func() { errs[i] = WriteIndex(index, []IndexEntry{{Notebook: name + ".ipynb", Report: r}}, true) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	got := titles()
	if len(got) != 2+at || got[0] != "T01-a" || got[1] != "T02-b again" {
		t.Errorf("after %d exports at once and 03-c removed: index lists %d %v, want 01-a, 02-b and the %d", at, len(got), got, at)
	}
}

// A notebook whose latest export failed before its report keeps the index's
// links to the previous report, which the failed export left whole, and the
// index says that the latest run failed, when, and why; it dropped them. The
// next export that succeeds clears the failure. A notebook never exported
// has no links to keep.
func TestIndexKeepsPreviousReport(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.html")
	first := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	table := filepath.Join(dir, "01-a", "results.csv")
	if err := os.MkdirAll(filepath.Dir(table), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(table, []byte("x\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := IndexEntry{Notebook: "notebooks/01-a.ipynb", Report: fakeReport(t, dir, "01-a", "T01-a"), RanAt: first, Tables: []string{table}}
	if err := WriteIndex(index, []IndexEntry{ok}, false); err != nil {
		t.Fatal(err)
	}
	failed := IndexEntry{Notebook: "notebooks/01-a.ipynb", Err: errors.New("write 01-a.html: no space left on device"), RanAt: first.Add(time.Hour)}
	never := IndexEntry{Notebook: "notebooks/02-b.ipynb", Err: errors.New("cell 3 failed"), RanAt: first.Add(time.Hour)}
	if err := WriteIndex(index, []IndexEntry{failed, never}, true); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	a, b, _ := strings.Cut(string(page), `<section id="02-b">`)
	for _, want := range []string{`href="01-a.html"`, `href="01-a.pdf"`, `href="01-a-code.html"`, `href="01-a/results.csv"`, "<h2>T01-a</h2>",
		"FAILED (the run of 2026-01-02 04:04 UTC): write 01-a.html: no space left on device", "previous report, of the run of 2026-01-02 03:04 UTC"} {
		if !strings.Contains(a, want) {
			t.Errorf("after a failed export of 01-a: its entry lacks %q:\n%s", want, a)
		}
	}
	if strings.Contains(a, "quick run") {
		t.Errorf("the kept report of a full run is marked quick (the failed run was):\n%s", a)
	}
	if !strings.Contains(b, "FAILED: cell 3 failed") || strings.Contains(b, "href=") || strings.Contains(b, "previous report") {
		t.Errorf("02-b, never exported: want the failure without links:\n%s", b)
	}
	entries, err := readManifest(filepath.Join(dir, "index.json"), dir)
	if err != nil || len(entries) != 2 || entries[0].Report == nil || !entries[0].FailedAt.Equal(failed.RanAt) || !entries[0].RanAt.Equal(first) {
		t.Fatalf("manifest after the failure: %+v, %v; want 01-a's report kept, failed at %v", entries, err, failed.RanAt)
	}
	if err := WriteIndex(index, []IndexEntry{ok}, false); err != nil {
		t.Fatal(err)
	}
	if page, _ := os.ReadFile(index); strings.Contains(string(page), "FAILED (the run") || strings.Contains(string(page), "previous report") {
		t.Errorf("a successful export after the failure still reports it")
	}
}

// The index counts its notebooks in words: "1 notebook", not "1 notebooks".
func TestIndexCountsNotebooks(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.html")
	at := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	a := IndexEntry{Notebook: "notebooks/01-a.ipynb", Report: fakeReport(t, dir, "01-a", "T01-a"), RanAt: at}
	b := IndexEntry{Notebook: "notebooks/02-b.ipynb", Report: fakeReport(t, dir, "02-b", "T02-b"), RanAt: at}
	for _, c := range []struct {
		entries []IndexEntry
		want    string
	}{{[]IndexEntry{a}, "<p class=\"meta\">1 notebook, made"}, {[]IndexEntry{a, b}, "<p class=\"meta\">2 notebooks, made"}} {
		if err := WriteIndex(index, c.entries, false); err != nil {
			t.Fatal(err)
		}
		if page, _ := os.ReadFile(index); !strings.Contains(string(page), c.want) {
			t.Errorf("index of %d notebooks lacks %q", len(c.entries), c.want)
		}
	}
}
