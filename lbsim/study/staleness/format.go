package staleness

import "strconv"

func num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
