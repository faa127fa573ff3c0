package nb

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"
)

// ProbeTimeout bounds one attempt to hear from a front-end before an
// Explorer falls back to static figures; it makes ProbeAttempts. GoNB gives
// the browser 3 s to open its websocket and half a second to acknowledge it,
// which a busy machine can miss; each attempt makes GoNB install it afresh.
// Under nbconvert nothing answers and the notebook pays every attempt once.
var (
	ProbeTimeout  = 4 * time.Second
	ProbeAttempts = 2
)

// Show draws the explorer. With a browser attached it shows the controls and
// redraws both views after every change until its stop button is pressed;
// otherwise (nbconvert, make reports, a terminal) it draws both views once
// for the default values.
func (e *Explorer) Show() error {
	warnUnknownOverrides()
	if err := e.check(); err != nil {
		return err
	}
	defer frontEnd.sync() // the last views are results: the kernel has them on return (see frontEnd)
	uid := gonbui.UniqueId()
	ids := [3]string{"lbsim-explorer-fig-" + uid, "lbsim-explorer-table-" + uid, "lbsim-explorer-sweep-" + uid}
	sweep := e.sweepable()[0]
	if e.SweepOver != "" {
		sweep = e.sweepIndex(e.SweepOver)
	}
	// The first view goes out before the sweep is computed: it is the quick
	// one. The sweep is skipped while further changes wait (pending), so a
	// user moving a slider sees the first view follow.
	draw := func(choices []int, sweep int, pending func() bool) {
		v := e.drawSingle(choices)
		frontEnd.updateHTML(ids[0], v.Figure)
		frontEnd.updateHTML(ids[1], v.Table)
		if !pending() {
			frontEnd.updateHTML(ids[2], e.drawSweep(choices, sweep))
		}
	}
	none := func() bool { return false }
	if !frontEnd.isNotebook {
		draw(e.defaults(), sweep, none)
		return nil
	}
	go exitWithKernel()
	answered := false
	for range ProbeAttempts {
		if answered = frontEndAnswers(ProbeTimeout); answered {
			break
		}
	}
	if !answered {
		showHTML(fmt.Sprintf(`<p style="font-family:sans-serif;font-size:13px;color:#555">Explorer: no browser answered within %v, `+
			`so these are static figures for the default values. Open the notebook in Jupyter (<code>make notebook</code>) to use the controls `+
			`(in a browser already? run the cell again).</p>`, time.Duration(ProbeAttempts)*ProbeTimeout))
		draw(e.defaults(), sweep, none)
		return nil
	}
	return e.live(draw, sweep)
}

// exitWithKernel ends the cell's program once the GoNB kernel that started it
// is gone (Jupyter stopped or killed): GoNB runs the program in a process
// group of its own, so it would otherwise wait forever for a browser that
// can no longer reach it, in a widget's set-up or for the stop button.
func exitWithKernel() {
	kernel := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != kernel {
			os.Exit(0)
		}
	}
}

// frontEndAnswers reports whether a browser runs GoNB's websocket for this
// cell: it asks the page to send a value back and waits up to timeout.
// Under nbconvert no page runs the script and the wait times out; nothing
// is closed then, as every further comms request would make GoNB retry its
// 3 s websocket install before showing our figures.
func frontEndAnswers(timeout time.Duration) bool {
	address := "/lbsim/explorer/probe/" + gonbui.UniqueId()
	answer := comms.Listen[int](address).WithBuffer(1) // installs GoNB's websocket if a browser is there
	scriptID := "lbsim-explorer-probe-" + gonbui.UniqueId()
	// The script waits for gonb_comm (GoNB installs it before it handles our
	// next message, but a slow page may lag) and sends 1 to the address.
	frontEnd.updateHTML(scriptID, fmt.Sprintf(`<script>(() => {
  const t0 = Date.now();
  const ping = () => {
    if (globalThis.gonb_comm) { globalThis.gonb_comm.send(%q, 1); return; }
    if (Date.now() - t0 < %d) { setTimeout(ping, 50); }
  };
  ping();
})();</script>`, address, timeout.Milliseconds()))
	defer frontEnd.updateHTML(scriptID, "") // not saved, not re-run by a report
	select {
	case <-answer.C:
		answer.Close()
		return true
	case <-time.After(timeout):
		return false
	}
}

// change is a new value of control i (len(Controls) is the sweep menu).
type change struct{ control, value int }

// live shows the controls and redraws after every change until stop.
func (e *Explorer) live(draw func(choices []int, sweep int, pending func() bool), sweep int) error {
	root := dom.CreateTransientDiv()
	uid := gonbui.UniqueId()
	cell := func(i int) string { return fmt.Sprintf("lbsim-explorer-%s-%d", uid, i) }
	var b strings.Builder
	b.WriteString(`<table class="lbsim-explorer-controls" style="font-family:sans-serif;font-size:13px">`)
	for i, c := range e.Controls {
		value := ""
		if !c.Menu {
			value = html.EscapeString(c.Values[c.Default])
		}
		fmt.Fprintf(&b, `<tr data-control="%s"><td style="text-align:left">%s</td><td id="%s"></td><td class="value" id="%s-value">%s</td></tr>`,
			html.EscapeString(c.Name), html.EscapeString(c.Name), cell(i), cell(i), value)
	}
	fmt.Fprintf(&b, `<tr data-control="sweep over"><td style="text-align:left">sweep over</td><td id="%s"></td><td></td></tr>`, cell(len(e.Controls)))
	fmt.Fprintf(&b, `<tr><td></td><td id="%s-stop"></td><td></td></tr></table>`, uid)
	dom.Append(root, b.String())

	changes := make(chan change, 16)
	forward := func(i int, ch *comms.AddressChan[int]) {
		for v := range ch.C {
			changes <- change{i, v}
		}
	}
	for i, c := range e.Controls {
		if c.Menu {
			w := widgets.Select(c.Values).SetDefault(c.Default).AppendTo(cell(i)).Done()
			go forward(i, w.Listen().LatestOnly())
			continue
		}
		w := widgets.Slider(0, len(c.Values)-1, c.Default).AppendTo(cell(i)).Done()
		go forward(i, w.Listen().LatestOnly())
		// Show the slider's value as it moves, without a round trip to Go.
		values, _ := json.Marshal(c.Values)
		dom.TransientJavascript(fmt.Sprintf(`(() => {
  const el = document.getElementById(%q), out = document.getElementById(%q), values = %s;
  el.addEventListener("input", () => { out.innerText = values[el.value]; });
})();`, w.HtmlId(), cell(i)+"-value", values))
	}
	sweepNames, sweepIdx := e.sweepNames(), e.sweepable()
	current := 0
	for j, i := range sweepIdx {
		if i == sweep {
			current = j
		}
	}
	sw := widgets.Select(sweepNames).SetDefault(current).AppendTo(cell(len(e.Controls))).Done()
	go forward(len(e.Controls), sw.Listen().LatestOnly())
	stop := widgets.Button("stop explorer").AppendTo(uid + "-stop").Done().Listen()

	choices := e.defaults()
	pending := func() bool { return len(changes) > 0 }
	draw(choices, sweep, pending)
	for {
		var c change
		select {
		case <-stop.C:
			dom.SetInnerHtml(root, `<p style="font-family:sans-serif;font-size:13px;color:#555">Explorer stopped: the figures show the last settings. Run the cell again to explore.</p>`)
			return nil
		case c = <-changes:
		}
		// Apply every change already waiting, then redraw once.
		for more := true; more; {
			switch {
			case c.value < 0: // a page sending junk; keep the last good choice
			case c.control == len(e.Controls) && c.value < len(sweepIdx):
				sweep = sweepIdx[c.value]
			case c.control < len(e.Controls) && c.value < len(e.Controls[c.control].Values):
				choices[c.control] = c.value
			}
			select {
			case c = <-changes:
			default:
				more = false
			}
		}
		draw(choices, sweep, pending)
	}
}
