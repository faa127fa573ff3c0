package shard

import "fmt"

// Assign splits configurations 0..m-1 into n shards by striding:
// configuration c goes to shard c mod n, so shard i holds i, i+n, i+2n, ...
// in ascending order. Shard sizes differ by at most one, and a grid whose cost
// grows along its index (higher loads last) is spread evenly over the shards
// rather than leaving the expensive tail to the last one. When n > m the
// shards i >= m are empty.
func Assign(m, n int) ([][]int, error) {
	if err := checkSplit(m, n); err != nil {
		return nil, err
	}
	shards := make([][]int, n)
	for i := range shards {
		shards[i] = members(i, n, m)
	}
	return shards, nil
}

// Shard returns the configurations of shard i of n (see Assign).
func Shard(i, n, m int) ([]int, error) {
	if err := checkSplit(m, n); err != nil {
		return nil, err
	}
	if err := checkIndex(i, n); err != nil {
		return nil, err
	}
	return members(i, n, m), nil
}

// memberCount is len(members(i, n, m)) without allocating.
func memberCount(i, n, m int) int {
	if i >= m {
		return 0
	}
	return (m-i-1)/n + 1
}

func members(i, n, m int) []int {
	cs := make([]int, 0, memberCount(i, n, m))
	for c := i; c < m; c += n {
		cs = append(cs, c)
	}
	return cs
}

// MaxConfigs bounds the configurations of a sweep and the shards of a split
// (a hostile identification line must not make the reader allocate).
const MaxConfigs = 10_000_000

func checkSplit(m, n int) error {
	if m < 0 || m > MaxConfigs {
		return fmt.Errorf("shard: %d configurations, want 0 or more and at most %d", m, MaxConfigs)
	}
	if n < 1 || n > MaxConfigs {
		return fmt.Errorf("shard: %d shards, want n >= 1 and n <= %d; use n = 1 for an unsharded run", n, MaxConfigs)
	}
	return nil
}

func checkIndex(i, n int) error {
	if i < 0 || i >= n {
		return fmt.Errorf("shard: shard index %d outside 0..%d for n = %d; shards are numbered from 0 (Slurm: --array=0-%d)", i, n-1, n, n-1)
	}
	return nil
}
