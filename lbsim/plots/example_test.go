package plots_test

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim/plots"
)

// Five replications of a mean waiting time: the 95% interval uses
// t_{0.975,4} = 2.776, not z = 1.96: s = 0.2550, s/sqrt(5) = 0.1140,
// half-width 2.776 * 0.1140 = 0.317.
func ExampleStudentT95() {
	mean, half := plots.StudentT95([]float64{4.1, 3.8, 4.4, 3.9, 4.3})
	fmt.Printf("%.2f +- %.3f\n", mean, half)
	// Output: 4.10 +- 0.317
}

func ExamplePNG() {
	rho := []float64{0.1, 0.5, 0.9}
	fig := plots.Figure{
		Title: "Mean waiting time", XLabel: plots.LoadLabel, YLabel: "W", LogY: true,
		Series: []plots.Series{{Name: "RND", X: rho, Y: []float64{0.11, 1.02, 8.7}, CI: []float64{0.01, 0.05, 0.9}}},
		Curves: []plots.Curve{{Name: "RND exact (M/M/1)", Of: "RND", X: rho, Y: []float64{0.111, 1, 9}}},
	}
	png, err := plots.PNG(fig)
	fmt.Println(len(png) > 0, err)
	// Output: true <nil>
}
