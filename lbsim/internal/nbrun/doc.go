// Package nbrun executes GoNB notebooks headless and checks them and their HTML reports.
//
// It drives Debian's Jupyter (/usr/bin/jupyter, on the system python) with the "gonb" kernel
// that .ci/setup.sh registers:
//
//   - [Execute] runs every cell with `jupyter nbconvert --to notebook --execute` and then scans
//     the executed notebook. GoNB reports compile errors as cell errors, but a panic or os.Exit
//     only prints "panic:" / "exit status N" to stderr while the cell still succeeds, so the scan
//     fails on that text too.
//   - [Publish] writes a notebook's reports (`make reports` and the tests share it): the report
//     view NAME.html (no code), NAME-code.html and NAME.pdf. Both pages are self-contained:
//     nbconvert embeds image/png outputs as data URIs, MathJax typesets the math to inline SVG
//     in headless Chromium at export time, and no script remains ([ExportHTML],
//     [ExportReportView]); Chromium prints the PDF ([PrintPDF]). Progress bars are left out, so a
//     report reads the same whether its results were computed or cached, and a quick run's
//     pages open with [QuickBanner]. [WriteIndex] writes index.html with each notebook's title,
//     question and answer read from its markdown cells, and where its results came from (the
//     run log that [Execute] collects, see internal/runlog).
//   - [Report.Check] checks a report: [CheckReport] (embedded PNG figures that decode, no error
//     text, a non-blank screenshot), [CheckOffline] (a copy outside the repository opened in
//     Chromium with the network closed: nothing loaded, images decode, no raw TeX in the rendered
//     text) and [CheckPDF] (every figure once, no blank page, the title on page 1).
//
// Notebooks import the repository module through a first cell (the README, "Importing lbsim in a notebook"):
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
