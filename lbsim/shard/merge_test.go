package shard

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The merged table of any split is the unsharded table, byte for byte.
func TestMergeEqualsUnsharded(t *testing.T) {
	const m = 50
	header, rows := table(m)
	want, err := EncodeCSV(header, rows)
	if err != nil {
		t.Fatal(err)
	}
	s := sweepOf(t, `{"grid":"synthetic"}`, m)
	for _, n := range []int{1, 3, 8, 64} {
		dir := t.TempDir()
		writeSplit(t, dir, s, n, header, rows)
		var got bytes.Buffer
		if err := WriteMerged(&got, dir); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("n=%d: merged table differs from the unsharded one:\n%s\nwant\n%s", n, got.Bytes(), want)
		}
	}
}

// Shards of different splits combine when they cover each configuration once:
// shard 0/2 is the even configurations, 1/4 and 3/4 the odd ones.
func TestMergeMixedSplitsThatCover(t *testing.T) {
	const m = 13
	header, rows := table(m)
	s := sweepOf(t, "mixed", m)
	dir := t.TempDir()
	all := t.TempDir()
	writeSplit(t, all, s, 2, header, rows)
	writeSplit(t, all, s, 4, header, rows)
	for _, name := range []string{FileName(0, 2), FileName(1, 4), FileName(3, 4)} {
		copyFile(t, filepath.Join(all, name), filepath.Join(dir, name))
	}
	_, got, err := Merge(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := EncodeCSV(header, rows)
	if b, _ := EncodeCSV(header, got); !bytes.Equal(b, want) {
		t.Errorf("merged mixed split differs:\n%s", b)
	}
}

func TestMergeErrors(t *testing.T) {
	const m = 10
	header, rows := table(m)
	s := sweepOf(t, "sweep A", m)
	other := sweepOf(t, "sweep B", m)
	full := t.TempDir()
	writeSplit(t, full, s, 3, header, rows)
	writeSplit(t, full, s, 2, header, rows)
	writeSplit(t, full, s, 4, header, rows)

	for _, tc := range []struct {
		name    string
		setup   func(dir string)
		mention []string
	}{
		{"empty directory", func(string) {}, []string{"no shard files", "-shard i/n"}},
		{"missing shard", func(dir string) {
			copyFile(t, filepath.Join(full, FileName(0, 3)), filepath.Join(dir, FileName(0, 3)))
			copyFile(t, filepath.Join(full, FileName(2, 3)), filepath.Join(dir, FileName(2, 3)))
		}, []string{"missing shard 1/3", "[1 4 7]", "-shard i/3"}},
		{"foreign file", func(dir string) {
			writeSplit(t, dir, s, 3, header, rows)
			o := t.TempDir()
			writeSplit(t, o, other, 2, header, rows)
			copyFile(t, filepath.Join(o, FileName(1, 2)), filepath.Join(dir, FileName(1, 2)))
		}, []string{"foreign", FileName(1, 2), other.ID[:12], s.ID[:12]}},
		{"duplicated configurations", func(dir string) {
			writeSplit(t, dir, s, 3, header, rows)
			copyFile(t, filepath.Join(full, FileName(0, 2)), filepath.Join(dir, FileName(0, 2)))
		}, []string{"configuration 0 appears twice", FileName(0, 2), FileName(0, 3)}},
		{"missing configurations of mixed splits", func(dir string) {
			copyFile(t, filepath.Join(full, FileName(0, 2)), filepath.Join(dir, FileName(0, 2)))
			copyFile(t, filepath.Join(full, FileName(1, 4)), filepath.Join(dir, FileName(1, 4)))
		}, []string{"missing configurations [3 7]"}},
		{"truncated file", func(dir string) {
			writeSplit(t, dir, s, 3, header, rows)
			p := filepath.Join(dir, FileName(2, 3))
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-20], 0o644)
		}, []string{FileName(2, 3), "truncated", "rerun that shard"}},
		{"renamed file", func(dir string) {
			copyFile(t, filepath.Join(full, FileName(0, 3)), filepath.Join(dir, FileName(1, 3)))
		}, []string{"holds shard 0/3", FileName(0, 3)}},
		{"different header", func(dir string) {
			writeSplit(t, dir, s, 2, header, rows)
			h := append([]string(nil), header...)
			h[4] = "mean_response"
			part := [][]string{rows[1], rows[3], rows[5], rows[7], rows[9]}
			os.Remove(filepath.Join(dir, FileName(1, 2))) // Write never replaces a file
			if err := Write(dir, s, 1, 2, h, part); err != nil {
				t.Fatal(err)
			}
		}, []string{"mean_response", "header"}},
	} {
		dir := t.TempDir()
		tc.setup(dir)
		_, _, err := Merge(dir)
		if err == nil {
			t.Errorf("%s: Merge succeeded", tc.name)
			continue
		}
		for _, s := range tc.mention {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, s)
			}
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
