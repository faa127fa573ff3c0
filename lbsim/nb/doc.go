// Package nb shows lbsim results in a GoNB Jupyter notebook: DataFrames as
// HTML tables, figures as PNG images, a progress bar for long sweeps, and a
// cache that keeps expensive results across cell executions (GoNB recompiles
// and re-runs the whole program for every cell).
//
// Explorer is an interactive view for a live notebook: sliders and menus
// (GoNB widgets) that re-run lbsim and redraw a figure and a table; without a
// browser it draws them once, statically.
//
// It is the only lbsim package that imports GoNB. Outside a notebook (for
// example under go test or in the command-line tool) displays are no-ops and
// progress goes to a terminal on stderr, or nowhere.
//
// # Importing lbsim in a notebook
//
// GoNB compiles each notebook as a temporary Go module. A notebook in the
// repository's notebooks/ folder makes the repository module and its pinned
// dependencies available with this first cell:
//
//	!*rm -f go.work && go work init && go work use . "${GONB_DIR}/.." \
//	  && go mod edit -require=github.com/perfeval/lbsim@v0.0.0-00010101000000-000000000000
//	%goworkfix
//
// It finds the repository as ${GONB_DIR}/.., the folder above the notebook's,
// so a notebook outside notebooks/ cannot import lbsim. The require matters:
// GoNB runs go get after every cell and go get ignores go.work; requiring the
// repository module (which %goworkfix replaces by its folder) puts the
// versions pinned in the repository's go.mod (gonb, gota, gonum/plot) into the
// notebook's build list, so go get never asks the module proxy for a latest
// version (which the proxy here refuses for gonb and gota).
//
// A cell that starts with %% is the body of the program's main; a cell
// without it holds declarations (imports, types, functions, vars) that every
// later cell sees. The packages: github.com/perfeval/lbsim/lbsim (the model
// and the simulator), .../lbsim/nb (this one), .../lbsim/plots (figures),
// .../lbsim/frame (gota tables), .../lbsim/study/course (the course
// handout's experiment: its sizes, loads, printed table, job classes and the
// figure of notebooks 01-03); study/staleness, study/finite and
// study/loadmoments serve one notebook each.
//
// # Running
//
// [Sweep] runs an lbsim.Grid (a base lbsim.Config and the axes to vary) with
// a progress bar and returns one lbsim.Row per configuration: Label ("LL-2"),
// D, C, the mean wait and its 95% interval, ExactWait and ExactMethod where
// the exact value is known (lbsim.Exact), LimitWait and LimitKind for a K ->
// infinity limit or a bound (lbsim.Limit), and Warnings. lbsim.Find(rows,
// "LL-2", 0.9) and lbsim.Select(rows, keep) pick rows; never parse Row.Policy.
// [SweepValid] skips invalid configurations and lists them under the cell,
// once per sweep (not again in later cells of the same GoNB session, which
// read the cached rows). [RunAll] runs a list of configurations, and
// [RunAllValid] the valid ones of a list, skipping the others as SweepValid
// does; [Results] (same arguments as RunAll) returns whole lbsim.Results,
// for what rows do not hold (time series, per-server utilisations, size
// classes). [Compare] shows A - B of two policies at every load of a sweep,
// paired (package compare). [Rank] orders rows by a metric within groups (a
// load, a discipline) and pairs the best against each of the others: a
// [Ranking], shown with [Table], whose verdicts say when the best is not
// told apart from the runner-up.
//
// Errors and warnings shown by nb (error boxes, the warnings column of
// [Table], the explorer) name the lbsim.Config fields to change (WarmupAuto:
// true, Reps: 5, AllowOverload: true) where the command line names its flags
// (-warmup auto, -reps 5, -overload); [FieldAdvice] turns one into the
// other, from lbsim's table of settings (lbsim.Fields). A saved CSV keeps the library's text.
//
// # Errors and displays
//
// [M1] (and [M2], [Must]) return the value or stop the cell with a red
// "error: ..." box and exit status 1 ([Fail]); the kernel that .ci/setup.sh
// builds reports that as the cell's error, so a headless run (make test,
// nbconvert) fails at that cell and Jupyter's "Run all" stops there:
// nb.M1(f(...)) needs no if err != nil. GoNB's must.M1
// does the same (nb reassigns must.M), and so does a bad parameter override.
// The sinks report their own errors the same way:
//
//   - [Table](rows, caption, options...) shows a slice of structs or a gota
//     DataFrame through frame.HTML, with a warnings column only when a row
//     has a warning, as footnote markers (¹ ², one per rule) with each message
//     listed once under the table. [SaveAs]("name") also saves name.csv, every
//     column at full precision, into $LBSIM_OUT_DIR, else reports/; [Digits]
//     (default 4 significant digits) is the other option.
//     [Save]("name", rows) saves without showing.
//   - [Figure](fig) and [Grid](figs, cols) show plots.Figure values at the
//     figure's WidthCm x HeightCm (default 16 x 10 cm, 11 x 8 cm a panel) and
//     note any defect the figure lint finds under the figure; [PNG] shows a
//     PNG of your own (a gonum/plot figure, say); [Note] prints a remark.
//
// Each has reached the notebook when it returns (GoNB reads displays
// asynchronously: gonbui.DisplayPNG alone, in a cell that ends at once, can
// lose its figure). Progress bars clear themselves when done and are left out
// of reports.
//
// # Parameters and overrides
//
// [Int], [Float] and [Floats] read a notebook parameter with a full and a
// quick value: nb.Int[int64]("jobs", 500_000, 100_000) (any integer type;
// nb.Int("servers", 50, 50) is an int). LBSIM_QUICK=1 (the test suite) picks
// the quick value ([Quick]); LBSIM_<NAME> overrides either ([EnvName]): jobs
// is LBSIM_JOBS, and a camel-case name keeps its word boundary (xM is
// LBSIM_X_M, xm is LBSIM_XM); two names that would share a variable (xM and
// x_m) are refused. Overrides are strict: an empty, malformed (numbers are
// plain decimals, as on the command line), negative (for whole numbers),
// non-finite or out-of-range value, or a list where one number is wanted,
// stops the cell with the red error box of every failure, naming the
// variable and the fix. An LBSIM_ variable that matches no parameter of the
// notebook (nor a setting such as LBSIM_QUICK) is reported under the
// notebook's first output, with the closest parameter name. LBSIM_QUICK and
// LBSIM_NO_CACHE take 1, true, yes, on or 0, false, no, off.
//
// Other variables: LBSIM_OUT_DIR (where CSV tables go), LBSIM_CACHE_DIR and
// LBSIM_NO_CACHE (below), LBSIM_RUN_LOG (set by nbreports and the tests: each
// of the notebook's programs appends what [Cached] computed or read and
// whether it ran quick, for the reports' index), LBSIM_FIGURE_LINT
// (plots.LintEnv: every figure's lint is appended to that file; the notebook
// tests fail on any defect).
//
// # The cache
//
// [Cached](key, compute) keeps a result on disk between runs, in
// $LBSIM_CACHE_DIR, else $XDG_CACHE_HOME/lbsim, else ~/.cache/lbsim
// ([CacheDir]); delete the folder to start afresh. LBSIM_NO_CACHE=1 computes
// everything and stores nothing, e.g. to time a run. A result is filed under
// its JSON-encoded key, the full shape of the result type (field names and
// types, recursively) and the code version of the running binary
// (lbsim.CodeVersion: the code of the core and of lbsim/theory, which
// determine a result row; editing a figure, a table or the report style
// keeps the cache). Each file carries a SHA-256 of its contents; a damaged
// file is recomputed, never decoded. The notebook's own computing code is not
// in the key: change the key when you change it, or call [CachedFresh] (same
// signature) once.
//
// [Sweep], [SweepValid], [RunAll] and [Results] are built on it and key each
// configuration by lbsim.Config.Key, which names every field but Workers and
// stays short at any K (speeds as runs, 5@2,5@1, or a hash when there are
// many distinct ones: 244 bytes at K = 10^6, where a cache hit takes
// milliseconds). A built-in policy is known by its spec (its code is in
// lbsim.CodeVersion). A policy of your own is known by what it does: its
// spec, its Go type, its exported fields and the servers its Pick chooses in
// 100-job runs with a fixed seed, with the configuration's dispatchers (up
// to 8 of them, their weights and stagger), on four small systems (unequal
// speeds, heavy-tailed sizes, a stale board) and on the configuration's own
// servers when K <= 1000 (about 0.5 ms a key). So editing Pick, also where
// it branches on View.Dispatchers or View.Dispatcher, or a field that
// String does not print, is recomputed. The probe is a test, not a proof:
// an edit that changes no choice in those runs (a branch taken only at K =
// 5000, after 10^5 jobs or with more than 8 dispatchers) is not seen, and
// the old rows are served. When in doubt, recompute that call with [Fresh]
// (Fresh.Sweep, Fresh.RunAll, Fresh.SweepValid, Fresh.RunAllValid, Fresh.Results), or set
// LBSIM_NO_CACHE=1. Fresh stores its rows in place of the old ones when
// they are the same numbers; when they differ, which a reproducible run
// under the same key cannot do, the key names two versions of your code
// and neither version's rows may be served to the other (going back to the
// old code must give the old numbers): the entry is dropped, and the key
// is recomputed every run from then on, with a note saying how to cache
// it again (a field that tells the versions apart, e.g. an exported
// Version, or deleting the mark file the note names). Runs with a time
// limit (MaxSeconds) are not checked: their numbers depend on the machine.
// A policy that draws from a global random source or the clock instead of
// View.Rand gets a new key every run and is never served from the cache;
// one whose Pick changes its own value is refused (lbsim.Policy). A Pick
// that does not return on a probe system (one that draws servers until one
// has fewer than 3 jobs, when all have 3) is stopped after 10^6 View calls
// for one job, or 10 s: its rows are computed every run, never stored nor
// served, with a note that says why (lbsim.KeyUnfinished).
//
// # The explorer
//
// Notebook 08 is an [Explorer]: make notebook, open 08-explorer.ipynb and run
// all cells. The last cell shows the controls; every change re-runs lbsim
// ([FastSettings]: 2 replications of 2e5 jobs after 2e4 warm-up jobs) and
// redraws two views: the chosen configuration (its mean wait with its 95%
// interval on the theory curve over the load, exact or the mean-field limit
// when lbsim.Theory knows one, and a table of the mean wait and response with
// intervals, the theory value and its method, and warnings), and a sweep of
// one numeric control with the others fixed. Notebook 08's controls:
//
//   - policy ([PolicyMenu]): every registered policy by its example spec
//     (jiq, jsq:d=2, ll:d=2, lsq:p=0.1, lwl, rnd, rr, sed, sita:c=20), plus
//     the extra specs given: jsq, ll:d=3, sita:cut=3,c=80, rnd:weights=speed,
//     rr:weights=speed, sed:d=2 and jiq:withdraw=1.
//   - servers K ([ServersSlider]): 1, 2, 5, 10, ... 1000.
//   - fast share, fast speed ([FastShareSlider], [FastSpeedSlider], after the
//     servers slider): the first share (0 to 1 in steps of 0.1) of the K
//     servers at the fast speed (1 to 10), the others at speed 1.
//   - load rho ([LoadSlider]): 0.05 to 0.99 in steps of 0.01.
//   - job sizes ([SizesMenu]): every registered size law by its example spec
//     (the sizes setting's lbsim.Field.Choices), such as the handout's twopoint:xm=1,xM=1000,beta=0.8.
//   - size SCV ([SCVSlider]): the squared coefficient of variation of the
//     laws with a WithSCV method, h2 and pareto (the others keep theirs).
//   - refresh T ([RefreshSlider]): the period of the board the policy reads
//     (0 = live state).
//   - tally ([TallyMenu]): the dispatcher adds its own sends since the last
//     refresh to the board.
//   - dispatchers M ([DispatchersSlider]): 1, 2, 5, ... 1000, each on its own
//     knowledge (its own tally on a board, its own I-queue for JIQ).
//   - discipline ([DisciplineMenu]): fcfs, ps or srpt.
//   - sweep over: the control swept in the second view; stop explorer: ends
//     the cell, and the last figures stay.
//
// A bad combination (say sita:c=20 with K = 10) shows lbsim's error in the
// table; the explorer stays usable. A control change redraws the first view
// in 0.1-0.3 s on this project's 2-core machine (measured by the browser test
// TestExplorerInBrowser, go test -run Browser -v ./lbsim/internal/nbrun,
// 15-40 s: from dispatch of the change to figure and table replaced in the
// page); a change that arrives while the sweep of the previous one is still
// running waits for it (0.5-1 s in all). go test -bench Explorer ./lbsim/nb
// gives the work per change: 70 ms for the first view (LL-2, K = 100,
// rho = 0.5), 0.43 s for an 8-point load sweep (150-240 ms and 0.72 s with a
// load average of 22). The browser test stops Jupyter, Chromium and the
// cell's program also when it fails or is killed.
//
// Without a browser (make reports, the test suite, nbconvert) nobody answers
// the explorer's probe ([ProbeAttempts] attempts of [ProbeTimeout]), and the
// cell draws both views once for the default values (about 20 s per headless
// run of notebook 08, compiling included). GoNB's own websocket bootstrap
// script stays in that output; in a report it finds no server and stops.
//
// An explorer of your own is a few lines: declare the controls, the run
// settings and the swept control; [Slider] and [Menu] make new controls from
// a function that sets a field of the lbsim.Config.
//
//	ex := nb.Explorer{
//		Base:      nb.FastSettings(),
//		Controls:  []nb.Control{nb.PolicyMenu("ll:d=2"), nb.ServersSlider(100), nb.LoadSlider(0.5)},
//		SweepOver: "load rho",
//	}
//	nb.Must(ex.Show())
package nb
