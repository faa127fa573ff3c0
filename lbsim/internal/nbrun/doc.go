// Package nbrun executes GoNB notebooks headless and checks them and their HTML reports.
//
// It drives Debian's Jupyter (/usr/bin/jupyter, on the system python) with the "gonb" kernel
// that .ci/setup.sh registers:
//
//   - [Execute] runs every cell with `jupyter nbconvert --to notebook --execute --allow-errors`
//     and then scans the executed notebook, so that every failed cell is reported and the
//     report of a failed run is still written. The kernel that .ci/setup.sh builds (GoNB with
//     .ci/gonb-v0.11.1.patch) makes a compile error, a panic or a non-zero exit (nb.M1's error
//     box) the cell's error; GoNB as published only prints "panic:" / "exit status N" to stderr
//     for the last two while the cell succeeds, so the scan fails on that text too.
//   - [Publish] writes a notebook's reports (`make reports` and the tests share it): the report
//     view NAME.html (no code), NAME-code.html and NAME.pdf. Both pages are self-contained:
//     nbconvert embeds image/png outputs as data URIs, MathJax typesets the math to inline SVG
//     in headless Chromium at export time, and no script remains ([ExportHTML]
//     writes the page with code alone); Chromium prints the PDF ([PrintPDF]). Progress bars are left out, so a
//     report reads the same whether its results were computed or cached, and a quick run's
//     pages open with [QuickBanner]. [WriteIndex] writes index.html with each notebook's title,
//     question and answer read from its markdown cells, and where its results came from (the
//     run log that [Execute] collects, see internal/runlog).
//   - [Report.Check] checks a report: [CheckReport] (embedded PNG figures that decode, no error
//     text, a non-blank screenshot), [CheckOffline] (a copy outside the repository opened in
//     Chromium with the network closed: nothing loaded, images decode, no raw TeX in the rendered
//     text) and [CheckPDF] (every figure once, no blank page, the title on page 1).
//
// Notebooks import the repository module through the first cell described in package nb
// (go doc ./lbsim/nb, "Importing lbsim in a notebook"); the report view hides that cell's output.
//
// # Reports
//
// For each notebook NAME, `make reports` (cmd/nbreports) writes into reports/:
//
//   - NAME.html: the report view, the notebook's text, formulas, printed results, tables and
//     figures, and no code.
//   - NAME-code.html: the whole notebook, the same with every code cell.
//   - NAME.pdf: the report view printed on A4 by headless Chromium. Figures span the text width;
//     figures, tables, outputs and code blocks are not cut by page breaks; printed lines wrap at
//     spaces only, and a block with lines wider than the page is set in smaller type so its
//     lines stay whole.
//   - NAME-students.ipynb, NAME-students.html, NAME-students-code.html, NAME-students.pdf, for a
//     notebook with cells tagged solution ([SolutionTag]; code or markdown): the notebook
//     without its solution cells and with no outputs, a handout to run and fill in, and the
//     executed report without the solution cells and their outputs (see [Students]). They are
//     cut from the same typeset page as the full report: nbconvert's lab template marks a
//     tagged cell with the class celltag_solution. TestStudentsFiles checks that no solution
//     text, code or number of testdata/solutions.ipynb reaches any students' file (the PDF's
//     text too) while the full report has them all. [SolutionLeaks] lists the names that a
//     cell given to students uses and only solution cells declare; nbreports warns of them.
//   - NAME/*.csv: the notebook's result tables, every column at full precision (nb.SaveAs,
//     nb.Save; in LBSIM_OUT_DIR when it is set).
//   - index.html: every notebook's title, question and answer, its run time and date, where its
//     results came from ("7 results computed in 30.2 s", or "5 of 7 results from the cache, 2
//     computed in 1.1 s"), and links to the files above. It lists every notebook exported into
//     the folder, by this run or an earlier or concurrent one: index.json beside it keeps the
//     entries, merged under the folder's lock (.nbrun.lock).
//
// # Progress and the skip rule
//
// [Execute] runs the cells as `jupyter nbconvert --to notebook --execute --allow-errors` does
// (nbconvert's NotebookExporter and ExecutePreprocessor, in execute.py), with nbclient's hooks
// telling each code cell's start and end: Options.Progress gets the cell (its number of N and
// its first line), its time, the notebook's, and the results computed and read from the cache
// so far (the run log). The run log says when a result is done, not when computing it starts.
// cmd/nbreports prints a line for each cell that takes 2 s or more, or a status line on a
// terminal.
//
// A report whose inputs did not change is kept ([ReportInputs], [Kept], [WriteStamp]): the
// notebook's bytes, every non-test Go source under lbsim/ with go.mod and go.sum (the core,
// whose hash is lbsim.CodeVersion and keys the results cache, and nb, plots, frame and this
// package), the files under data/, quick or full, the LBSIM_* variables and the tools'
// versions. The stamp OUT/.NAME.stamp.json is removed before a notebook runs and written after
// a whole export, with the hashes of the report's files, so a failed, stopped or partial
// export is never kept. A notebook run again whose page comes out the same reuses the page
// MathJax typeset and the PDF printed from the same view (kept beside the report, see
// reuse.go): on a busy 2-core machine, a cached re-export of notebook 12 took 7.8 s before,
// 2.5-3.1 s after.
//
// Every file is written through package files: a report's three files are replaced as one
// (files.Batch), so a failed export (a full disk, Chromium failing) leaves the previous
// report whole, and the index and its manifest likewise; the index keeps linking that
// report and says that the latest run failed, and why.
//
// A cell that printed more than 1 MB (a print in a loop) is cut in the executed notebook to its
// first and last 16 kB, with a note of its size where it was cut (see maxCellPrint): the report
// shows how the output started and ended, and [Execute] fails naming the cell and its size. A
// notebook whose set-up cell cannot reach the repository (a notebook copied out of notebooks/)
// is refused before a kernel starts, with the command that copies it into notebooks/.
//
// A report reads the same whether its results were computed or came from the cache: progress
// bars clear themselves when done and are left out of reports. What the run did is recorded
// apart: each of the notebook's programs appends to the file named by LBSIM_RUN_LOG (set by
// nbreports and the tests) what nb.Cached computed or read and whether it ran quick, and the
// executed notebook keeps the summary in its metadata (lbsim_run). Every page of a quick run's
// report opens with the banner "Quick run (LBSIM_QUICK=1): shortened runs, rough numbers", so
// the first page of its PDF says so too; a full run's pages carry none, nor do those of a
// notebook that reads no quick setting (the explorer runs the same either way).
//
// The HTML files are self-contained: open them in any browser, offline, on any machine.
// Figures are embedded PNG images; formulas are typeset when the report is made (MathJax 2 in
// headless Chromium, SVG output) and stored as inline SVG, so a reader needs no MathJax, no font
// and no network; the files hold no script at all. Links in index.html are relative: move the
// folder as a whole.
//
// Sizes (measured on this repository's notebooks): a report view is 0.2-2.2 MB, about 100 kB of
// style, 0.1-0.8 MB the figures (PNG) and 0.1-0.36 MB the formulas (SVG, about 3.5 kB each); the
// page with code is 3-6% larger; a PDF is 0.45-1.5 MB for 4-14 A4 pages; index.html is 0.75 MB
// (the questions and answers carry their formulas). nbconvert's lab template embeds
// JupyterLab's whole style sheet, 570 kB, in every page; a report is static, so the rules that
// need a class no element of the page has (menus, dialogs, widgets: 470 kB) are dropped when it
// is made (pruneStyles), and the tests check that Chromium draws the page pixel for pixel as
// with the whole sheet.
//
// Tables in reports are drawn by package frame (go doc ./lbsim/frame): the tests check that every
// report's tables fit a 1000 px page and that no PDF page is mostly one- or two-character lines.
//
// # The index
//
// How a notebook is read for the index: its title is the first # heading; its question the first
// markdown cell with a paragraph that starts with **Question**; its answer the last markdown cell
// that opens with a heading "## Answer..." or "## Conclusion...", or with **Answer**. A notebook
// without a title or question fails `make reports` and the tests with a message that says how to
// mark them; one without an answer (the explorer) is listed as stating none, and TestNotebooks
// requires an answer of every other notebook.
//
// # What the tests check
//
// For every notebook in the quick run ([Report.Check], [CheckOffline], [CheckPDF]): each HTML
// page is copied alone into a fresh folder outside the repository and opened in headless
// Chromium with every host name unresolvable (--host-resolver-rules="MAP * ~NOTFOUND"); the
// page may hold no script and no src, href (style sheets, icons), url() or @import pointing
// outside itself, the browser must record no fetch, every image must decode, and the rendered
// text (outside code) must hold no TeX ($...$, \(, \frac, ...). The report view must show no
// code and the other page must. The PDF must open (pdfinfo), hold every figure exactly once (a
// figure cut by a page break is drawn twice, pdfimages), have no blank page and show the title
// on page 1 (pdftotext). The index is checked the same way, and every link must lead to a file
// in the copied folder. No page or PDF may show a progress line; a quick run's pages and PDF
// page 1 must show the banner; every line the notebook printed must appear in the PDF's text
// whole or wrapped at spaces, never broken inside a number; and a PDF page other than the last
// must hold a figure or at least 3 lines of text. Notebook 01 runs again on the cache its run
// filled, and the two reports' text must be the same. TestExplorerInBrowser opens the
// explorer (notebook 08) in headless Chromium against a real Jupyter server and operates its
// controls (see package nb, "The explorer").
//
// Every Chromium step (typesetting, printing, screenshots, the offline checks) opens its page
// in one headless Chromium that the process starts on first use and drives over the DevTools
// protocol, each page in a browser context of its own (an incognito profile), so pages do not
// influence each other and no step pays a browser's start. Likewise every HTML export goes to
// one Python running nbconvert's HTML exporter (the one `jupyter nbconvert --to html` runs,
// same page byte for byte), started on first use: no export pays Python's and nbconvert's start.
//
// The tests that run a kernel or Chromium (each notebook of TestNotebooks, the harness
// notebooks, the explorer, the publish checks) are parallel: go test runs as many at once as
// its -parallel, GOMAXPROCS by default, one a core. TestPublishFullDisk stays serial (its
// simulated full disk is global), so it runs before them all.
package nbrun
