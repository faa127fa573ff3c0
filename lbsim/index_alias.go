package lbsim

// aliasTable draws server k with probability p_k in O(1) (Walker's alias
// method, Vose's construction): one uniform u in [0, K) picks the column
// i = floor(u), which keeps i if frac(u) < keep[i] and else gives alias[i].
type aliasTable struct {
	keep  []float64
	alias []int32
}

// newAliasTable builds the table of the probabilities p (summing to 1).
func newAliasTable(p []float64) *aliasTable {
	k := len(p)
	t := &aliasTable{keep: make([]float64, k), alias: make([]int32, k)}
	var small, large []int32
	for i, x := range p {
		t.keep[i] = x * float64(k)
		t.alias[i] = int32(i)
		if t.keep[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		t.alias[s] = l
		t.keep[l] -= 1 - t.keep[s]
		if t.keep[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range append(small, large...) { // rounding leaves them full
		t.keep[i] = 1
	}
	return t
}

func (t *aliasTable) draw(r *Stream) int {
	u := r.Float64() * float64(len(t.keep))
	i := int(u)
	if u-float64(i) < t.keep[i] {
		return i
	}
	return int(t.alias[i])
}
