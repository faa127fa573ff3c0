package nbrun

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
)

// Ready reports whether notebooks can run and be made into reports here: Debian's jupyter with
// nbconvert and a registered "gonb" kernel, MathJax (typesets the reports' math), Chromium
// (renders, prints and checks reports) and poppler's PDF tools. The error says what is missing
// and that .ci/setup.sh installs it.
func Ready() error {
	for _, bin := range []string{Jupyter, "/usr/bin/jupyter-nbconvert", Chromium, MathJaxDir + "/MathJax.js",
		"/usr/bin/pdfinfo", "/usr/bin/pdfimages", "/usr/bin/pdftotext"} {
		if _, err := os.Stat(bin); err != nil {
			return fmt.Errorf("%s not found: run .ci/setup.sh to install Jupyter, MathJax, Chromium and poppler-utils", bin)
		}
	}
	argv, err := gonbKernel()
	if err != nil {
		return err
	}
	if _, err := os.Stat(argv[0]); err != nil {
		return fmt.Errorf("gonb kernel binary %s is missing: run .ci/setup.sh to rebuild it", argv[0])
	}
	return nil
}

// gonbKernel is the command line of the registered gonb kernel (jupyter kernelspec list), asked
// once per process: it starts Python (about 1.5 CPU-s).
var gonbKernel = sync.OnceValues(kernelArgv)

func kernelArgv() ([]string, error) {
	out, err := exec.Command(Jupyter, "kernelspec", "list", "--json").Output()
	if err != nil {
		return nil, fmt.Errorf("%s kernelspec list: %w: run .ci/setup.sh", Jupyter, err)
	}
	var specs struct {
		Kernelspecs map[string]struct {
			Spec struct {
				Argv []string `json:"argv"`
			} `json:"spec"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &specs); err != nil {
		return nil, fmt.Errorf("%s kernelspec list --json: %w", Jupyter, err)
	}
	gonb, ok := specs.Kernelspecs["gonb"]
	if !ok || len(gonb.Spec.Argv) == 0 {
		return nil, fmt.Errorf("jupyter has no gonb kernel: run .ci/setup.sh to build and register GoNB")
	}
	return gonb.Spec.Argv, nil
}
