package nb

import (
	"fmt"
	"os"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// probeEnv makes this test binary a cache client for the two-builds test in
// lbsim/cmd/lbsim: it runs one Cached computation whose value is the code
// version of the build, and prints whether it computed and what it got.
const probeEnv = "LBSIM_CACHE_PROBE"

func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) == "1" {
		computed := false
		v, err := Cached("two-builds probe", func() (string, error) {
			computed = true
			return lbsim.CodeVersion(), nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("computed=%v value=%s code=%s\n", computed, v, lbsim.CodeVersion())
		os.Exit(0)
	}
	os.Exit(m.Run())
}
