// Package nbrun executes GoNB notebooks headless and checks them and their HTML reports.
//
// It drives Debian's Jupyter (/usr/bin/jupyter, on the system python) with the "gonb" kernel
// that .ci/setup.sh registers:
//
//   - [Execute] runs every cell with `jupyter nbconvert --to notebook --execute` and then scans
//     the executed notebook. GoNB reports compile errors as cell errors, but a panic or os.Exit
//     only prints "panic:" / "exit status N" to stderr while the cell still succeeds, so the scan
//     fails on that text too.
//   - [ExportHTML] turns an executed notebook into a self-contained HTML report (nbconvert embeds
//     image/png outputs as data URIs).
//   - [CheckReport] checks a report: embedded PNG figures that decode, no error text, and a
//     non-blank screenshot taken by headless Chromium.
//
// Notebooks import the repository module through a first cell (DESIGN.md, "Notebooks"):
//
//	!*rm -f go.work && go work init && go work use . "${GONB_DIR}/.." \
//	  && go mod edit -require=github.com/perfeval/lbsim@v0.0.0-00010101000000-000000000000
//	%goworkfix
//
// GoNB runs `go get` after every cell and `go get` ignores go.work; requiring the repository
// module (which %goworkfix replaces by its folder) puts the versions pinned in the repository's
// go.mod (gonb, gota, gonum/plot) into the notebook's build list, so `go get` never asks the
// module proxy for a latest version, which the proxy here refuses for gonb and gota.
package nbrun
