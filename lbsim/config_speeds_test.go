package lbsim

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseSpeeds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []float64
	}{
		{"1", []float64{1}},
		{"2,2,1", []float64{2, 2, 1}},
		{"5@2,5@1", []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}},
		{"2, 2@1", []float64{2, 1, 1}},
		{"1@0.5", []float64{0.5}},
	} {
		got, err := ParseSpeeds(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSpeeds(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"0@2", "count 0 is out of range"},
		{"x@2", "COUNT@SPEED"},
		{"5@", "speed"},
		{"2,,1", "item 2"},
		{"20000000@1", "out of range"},
	} {
		if _, err := ParseSpeeds(c.in); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ParseSpeeds(%q): error %v, want one naming %q", c.in, err, c.msg)
		}
	}
}

// Every way of writing one set of servers is the same configuration: the
// same key, and the same numbers; what a row writes reads back as it.
func TestSpeedsWrittenAnyWay(t *testing.T) {
	base := Config{Servers: 10, Load: 0.6, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}, Jobs: 5000, Seed: 3}
	var keys []string
	var waits []float64
	for _, spec := range []string{"5@2,5@1", "2,2,2,2,2,1,1,1,1,1", "2,2,3@2,5@1"} {
		sp, err := ParseSpeeds(spec)
		if err != nil {
			t.Fatal(err)
		}
		c := base
		c.Speeds = sp
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		keys, waits = append(keys, c.Key()), append(waits, r.Wait.Mean)
		if text := NewRow(r).Speeds; text != "5@2,5@1" {
			t.Errorf("%s: row speeds %q, want 5@2,5@1", spec, text)
		}
	}
	for i := range keys[1:] {
		if keys[i+1] != keys[0] || waits[i+1] != waits[0] {
			t.Errorf("written differently, different run: %q %v against %q %v", keys[i+1], waits[i+1], keys[0], waits[0])
		}
	}
	for _, sp := range [][]float64{nil, {1}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}} {
		c := base
		c.Speeds = sp
		back, _ := ParseSpeeds(SpeedsText(sp, 10))
		if c.speedsKey() != "10@1" || len(back) != 10 {
			t.Errorf("speeds %v: key %q, read back as %v", sp, c.speedsKey(), back)
		}
	}
}

func TestFastSlowSpeeds(t *testing.T) {
	if got := SpeedsText(FastSlowSpeeds(10, 0.3, 4), 10); got != "3@4,7@1" {
		t.Errorf("FastSlowSpeeds(10, 0.3, 4) = %s, want 3@4,7@1", got)
	}
	if got := SpeedsText(FastSlowSpeeds(4, 1.5, 2), 4); got != "4@2" {
		t.Errorf("share above 1: %s, want 4@2", got)
	}
}

// The speed groups number the distinct speeds fastest first, each server's
// group naming its speed; slowestFirst, built on them, is a stable sort by
// speed, slowest first.
func TestSpeedGroups(t *testing.T) {
	for _, speeds := range [][]float64{
		{1},
		{2, 2, 1, 1, 1},
		{1, 3, 2, 3, 1, 0.5, 2, 2, 0.5},
		FastSlowSpeeds(1000, 0.3, 4),
		{1, math.NaN(), 2, math.NaN()}, // refused by Validate, but must not break the numbering
	} {
		g := newSpeedGroups(speeds)
		for i := 1; i < len(g.mu); i++ {
			if cmp.Compare(g.mu[i-1], g.mu[i]) <= 0 {
				t.Errorf("%v: groups %v not fastest first", speeds, g.mu)
			}
		}
		for k, mu := range speeds {
			if cmp.Compare(g.mu[g.of[k]], mu) != 0 {
				t.Errorf("%v: server %d of speed %v is in group %d of speed %v", speeds, k, mu, g.of[k], g.mu[g.of[k]])
			}
		}
		want := make([]int, len(speeds))
		for k := range want {
			want[k] = k
		}
		slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(speeds[a], speeds[b]) })
		if got := slowestFirst(speeds); !slices.Equal(got, want) {
			t.Errorf("%v: slowestFirst %v, want %v", speeds, got, want)
		}
	}
}
