package shard

import (
	"slices"
	"strings"
	"testing"
)

func TestAssignStrides(t *testing.T) {
	got, err := Assign(10, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{0, 3, 6, 9}, {1, 4, 7}, {2, 5, 8}}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("shard %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// Every configuration lands in exactly one shard, the one Shard names, and
// shard sizes differ by at most one.
func TestAssignPartitions(t *testing.T) {
	for _, tc := range []struct{ m, n int }{{0, 1}, {1, 1}, {7, 1}, {7, 7}, {2, 5}, {100, 3}, {101, 8}, {64, 8}} {
		shards, err := Assign(tc.m, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if len(shards) != tc.n {
			t.Fatalf("m=%d n=%d: %d shards", tc.m, tc.n, len(shards))
		}
		count := make([]int, tc.m)
		lo, hi := tc.m, 0
		for i, s := range shards {
			one, err := Shard(i, tc.n, tc.m)
			if err != nil || !slices.Equal(one, s) {
				t.Errorf("m=%d n=%d: Shard(%d) = %v, %v; Assign gave %v", tc.m, tc.n, i, one, err, s)
			}
			if !slices.IsSorted(s) {
				t.Errorf("m=%d n=%d: shard %d not ascending: %v", tc.m, tc.n, i, s)
			}
			for _, c := range s {
				count[c]++
			}
			lo, hi = min(lo, len(s)), max(hi, len(s))
		}
		for c, k := range count {
			if k != 1 {
				t.Errorf("m=%d n=%d: configuration %d in %d shards", tc.m, tc.n, c, k)
			}
		}
		if hi-lo > 1 {
			t.Errorf("m=%d n=%d: shard sizes from %d to %d", tc.m, tc.n, lo, hi)
		}
	}
}

func TestAssignErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     func() error
		mention []string
	}{
		{"n=0", func() error { _, err := Assign(5, 0); return err }, []string{"0 shards", "n >= 1"}},
		{"m<0", func() error { _, err := Assign(-2, 3); return err }, []string{"-2 configurations", "0 or more"}},
		{"i<0", func() error { _, err := Shard(-1, 3, 10); return err }, []string{"-1", "0..2", "--array=0-2"}},
		{"i=n", func() error { _, err := Shard(3, 3, 10); return err }, []string{"3", "0..2"}},
	} {
		err := tc.err()
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, s := range tc.mention {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, s)
			}
		}
	}
}
