package frame_test

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim/frame"
)

func ExampleFromStructs() {
	type point struct {
		Policy string  `frame:"policy"`
		Rho    float64 `json:"rho"`
		Wait   float64 `frame:"W"`
	}
	df, err := frame.FromStructs([]point{{"RND", 0.5, 4.02}, {"LL-2", 0.5, 0.31}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(df.Names(), df.Col("W").Float())
	// Output: [policy rho W] [4.02 0.31]
}
