package nbrun

import "testing"

// notebookChecks holds extra checks on the numbers a notebook produced, keyed by the notebook's
// file name (for example "01-dispatching.ipynb"). TestNotebooks calls the check after the
// notebook ran (with LBSIM_QUICK=1 unless the caller set LBSIM_QUICK) and its report passed
// CheckReport. outDir is the notebook's LBSIM_OUT_DIR: read the CSV tables the notebook wrote
// there and assert real properties (row counts, orderings, agreement with exact values within
// the confidence interval). Add an entry from your own file with an init function:
//
//	func init() { notebookChecks["01-dispatching.ipynb"] = checkDispatching }
//
//	func checkDispatching(t *testing.T, outDir string) { ... }
var notebookChecks = map[string]func(t *testing.T, outDir string){}
