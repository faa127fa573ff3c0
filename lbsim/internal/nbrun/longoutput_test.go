package nbrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cell that printed 3 MB, on stdout and stderr in turns around a figure, keeps in the
// executed notebook its first and last lines with a note of the cut, and the figure; the error
// names the cell and its size. Cells that printed less are left as they were.
func TestCutLongOutputs(t *testing.T) {
	line := func(i int) string { return fmt.Sprintf("line %07d %s\n", i, strings.Repeat("x", 80)) } // 94 bytes
	stream := func(name string, from, to int) map[string]any {
		var b strings.Builder
		for i := from; i < to; i++ {
			b.WriteString(line(i))
		}
		return map[string]any{"output_type": "stream", "name": name, "text": b.String()}
	}
	const lines = 32_000 // 3.0 MB
	var outs []any
	for k := range 8 {
		outs = append(outs, stream([]string{"stdout", "stderr"}[k%2], k*lines/8, (k+1)*lines/8))
		if k == 3 {
			outs = append(outs, map[string]any{"output_type": "display_data", "metadata": map[string]any{},
				"data": map[string]any{"image/png": "iVBORw0KGgo="}})
		}
	}
	small := []any{stream("stdout", 0, 100)}
	code := func(outs []any) map[string]any {
		return map[string]any{"cell_type": "code", "metadata": map[string]any{}, "source": "", "execution_count": 1, "outputs": outs}
	}
	nb := map[string]any{"cells": []any{map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": "# T"},
		code(small), code(outs), code(small)}, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5}
	data, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	err = cutLongOutputs(path, data)
	if err == nil || !strings.Contains(err.Error(), "cell 2 printed 3.0 MB to stdout and stderr, more than the 1.0 MB") {
		t.Fatalf("err = %v, want cell 2 named with its 3.0 MB", err)
	}
	if strings.Contains(err.Error(), "cell 1") || strings.Contains(err.Error(), "cell 3") {
		t.Errorf("err = %v names a cell that printed 9 kB", err)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got notebook
	if err := json.Unmarshal(after, &got); err != nil {
		t.Fatal(err)
	}
	var printed strings.Builder
	figures := 0
	for _, o := range got.Cells[2].Outputs {
		printed.WriteString(string(o.Text))
		if _, ok := o.Data["image/png"]; ok {
			figures++
		}
	}
	text := printed.String()
	if len(text) > keepHead+keepTail+1000 || figures != 1 {
		t.Errorf("cut cell prints %d bytes and shows %d figures, want at most %d and the 1 figure", len(text), figures, keepHead+keepTail+1000)
	}
	if !strings.HasPrefix(text, line(0)) || !strings.HasSuffix(text, line(lines-1)) || !strings.Contains(text, "this cell printed 3.0 MB") {
		t.Errorf("cut text should open with line 0, close with line %d and note the cut:\n%s\n...\n%s", lines-1, clip(text, 200), text[max(0, len(text)-200):])
	}
	for _, l := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(l, "line ") && len(l) != len(line(0)) {
			t.Errorf("a line was cut inside: %q", l)
		}
	}
	for _, c := range []int{1, 3} {
		if s := string(got.Cells[c].Outputs[0].Text); s != small[0].(map[string]any)["text"] {
			t.Errorf("cell %d changed (%d bytes)", c, len(s))
		}
	}
}

// Chromium's D-Bus complaints, logged on every run without a desktop session, stay out of its
// error; what else it logged stays in.
func TestChromiumLogDropsNoise(t *testing.T) {
	log := Chromium + ": 9: [: 25275953152: unexpected operator\n" +
		strings.Repeat("[17219:17250:1201/231802.356911:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory\n", 20) +
		"[17219:17219:1201/231803.412660:ERROR:dbus/object_proxy.cc:572] Failed to call method: org.freedesktop.DBus.NameHasOwner: object_path= /org/freedesktop/DBus: unknown error type: \n" +
		"[1:1:1201/231803.5:FATAL:memory.cc:22] Out of memory. size=268435456\n"
	if got, want := chromiumLog(log), "\n[1:1:1201/231803.5:FATAL:memory.cc:22] Out of memory. size=268435456"; got != want {
		t.Errorf("chromiumLog = %q, want %q", got, want)
	}
	if got := chromiumLog(strings.Repeat("[1:2:3/4:ERROR:dbus/bus.cc:405] Failed to connect to the bus\n", 30)); got != "" {
		t.Errorf("chromiumLog(only noise) = %q, want nothing", got)
	}
}

// A notebook cell that prints 2 MB: Execute fails naming the cell and its size, and the report
// shows the output's ends with the note, not the 2 MB.
func TestExecuteLongOutput(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	md := func(src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": src}
	}
	nb := map[string]any{"cells": []any{md("# Long output\n\n**Question.** What does a report show of 2 MB?"),
		map[string]any{"cell_type": "code", "metadata": map[string]any{}, "execution_count": nil, "outputs": []any{},
			"source": "import \"strings\"\n\n%%\nfor i := range 20_000 {\n\tfmt.Printf(\"line %06d %s\\n\", i, strings.Repeat(\"x\", 88))\n}"},
		md("## Answer\n\nIts ends.")},
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "gonb", "display_name": "Go (gonb)", "language": "go"}},
		"nbformat": 4, "nbformat_minor": 5}
	data, _ := json.Marshal(nb)
	path := filepath.Join(dir, "long.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Execute(context.Background(), path, Options{Output: filepath.Join(artifactDir(t), "long.ipynb")})
	if err == nil || !strings.Contains(err.Error(), "cell 1 printed 2.0 MB to stdout") {
		t.Fatalf("Execute = %v, want cell 1 named with its 2.0 MB", err)
	}
	r, err := Publish(res.Executed, filepath.Join(dir, "r"), "long")
	if err != nil {
		t.Fatal(err)
	}
	view, _ := os.ReadFile(r.View)
	for _, want := range []string{"line 000000 ", "line 019999 ", "this cell printed 2.0 MB"} {
		if !bytes.Contains(view, []byte(want)) {
			t.Errorf("report view lacks %q", want)
		}
	}
	if bytes.Contains(view, []byte("line 010000 ")) {
		t.Error("report view shows the middle of the output")
	}
}
