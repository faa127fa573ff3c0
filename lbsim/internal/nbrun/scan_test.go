package nbrun

import (
	"strings"
	"testing"
)

// TestScan checks the scan on hand-written executed notebooks, without Jupyter.
func TestScan(t *testing.T) {
	const head = `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
		{"cell_type": "markdown", "metadata": {}, "source": "panic: in prose is fine"},`
	tests := []struct {
		name      string
		cells     string
		wantCells int
		wantErr   []string // empty: no error
	}{
		{"clean", `{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"]}]}`, 1, nil},
		{"panic as list", `{"cell_type": "code", "outputs": []},
			{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr", "text": ["x\n", "panic: boom\n", "exit status 2\n"]}]}`,
			2, []string{`notebook nb.ipynb: cell 2: stderr output contains "panic:":` + "\npanic: boom"}},
		{"exit as string", `{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr", "text": "exit status 3\n"}]}`,
			1, []string{`cell 1: stderr output contains "exit status "`, "exit status 3"}},
		{"error output with html context", `{"cell_type": "code", "outputs": [
			{"output_type": "display_data", "metadata": {}, "data": {"text/html": "<style>.x{}</style><b>main.go:3: undefined: y</b>"}},
			{"output_type": "error", "ename": "ERROR", "evalue": "go build failed", "traceback": []}]}`,
			1, []string{"cell 1: error output: ERROR: go build failed\nmain.go:3: undefined: y"}},
		{"ansi colours stripped", `{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout", "text": "\u001b[7mpanic:\u001b[0m x"}]}`,
			1, []string{`cell 1: stdout output contains "panic:":` + "\npanic: x"}},
		{"text/plain result", `{"cell_type": "code", "outputs": [{"output_type": "execute_result", "data": {"text/plain": ["exit status 1"]}}]}`,
			1, []string{`cell 1: execute_result output contains "exit status "`}},
		{"error and its display blamed once", `{"cell_type": "code", "outputs": [
			{"output_type": "display_data", "data": {"text/html": "<pre>go get: exit status 1</pre>"}},
			{"output_type": "error", "ename": "ERROR", "evalue": "go get failed"}]}`,
			1, []string{"notebook nb.ipynb: cell 1: error output: ERROR: go get failed\ngo get: exit status 1"}},
		{"notebook error line", `{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout", "text": "rows: 3\nerror: sita c=0 is invalid\n"}]}`,
			1, []string{"cell 1: stdout output has an error line:\nerror: sita c=0 is invalid"}},
		{"error: inside a line is prose", `{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout", "text": "largest standard error: 1.6%\n"}]}`, 1, nil},
		{"two bad cells", `{"cell_type": "code", "outputs": [{"output_type": "error", "ename": "E", "evalue": "v"}]},
			{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr", "text": "exit status 1"}]}`,
			2, []string{"notebook nb.ipynb: cell 1: error output: E: v", "notebook nb.ipynb: also cell 2: stderr"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Scan("nb.ipynb", []byte(head+tt.cells+"]}"))
			if n != tt.wantCells {
				t.Errorf("code cells = %d, want %d", n, tt.wantCells)
			}
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Errorf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tt.wantErr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
			if got, want := strings.Count(err.Error(), "notebook nb.ipynb: "), len(tt.wantErr); tt.name != "exit as string" && got != want {
				t.Errorf("error blames %d cells, want %d:\n%v", got, want, err)
			}
		})
	}
	if _, err := Scan("broken.ipynb", []byte("{not json")); err == nil || !strings.Contains(err.Error(), "notebook broken.ipynb: not a valid notebook JSON") {
		t.Errorf("broken JSON: err = %v", err)
	}
}
