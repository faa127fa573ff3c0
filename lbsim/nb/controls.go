package nb

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

// Control is one input of an Explorer: a slider that steps through Values in
// order, or a drop-down menu of them. Set applies the chosen value to the
// configuration; the Explorer applies its controls in order, so a control may
// refine what an earlier one set (the SCV slider reshapes the law chosen by
// the size menu).
type Control struct {
	Name    string   // label shown beside the control; also the sweep menu's entry
	Values  []string // the choices, as shown
	Default int      // index into Values of the initial choice
	Menu    bool     // a drop-down menu instead of a slider
	// Numbers holds Values as numbers when the control is numeric; only a
	// numeric control can be swept (it gives the x axis of the sweep view).
	Numbers []float64
	LogX    bool // sweep x axis on a log scale
	Set     func(cfg *lbsim.Config, value string) error

	err error // a mistake in the constructor's arguments, reported by Show
}

// Slider is a numeric Control stepping through values, starting at def (which
// must be one of them). set receives the chosen number.
func Slider(name string, values []float64, def float64, set func(cfg *lbsim.Config, x float64) error) Control {
	c := Control{Name: name, Numbers: values, Default: -1}
	for i, x := range values {
		c.Values = append(c.Values, strconv.FormatFloat(x, 'g', -1, 64))
		if x == def {
			c.Default = i
		}
	}
	c.Set = func(cfg *lbsim.Config, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("%s: %q is not a number", name, v)
		}
		return set(cfg, x)
	}
	return c
}

// Menu is a Control choosing among options, starting at def (which must be
// one of them).
func Menu(name string, options []string, def string, set func(cfg *lbsim.Config, option string) error) Control {
	c := Control{Name: name, Values: options, Default: -1, Menu: true, Set: set}
	for i, o := range options {
		if o == def {
			c.Default = i
		}
	}
	return c
}

// check says what is wrong with c, if anything.
func (c Control) check() error {
	switch {
	case c.err != nil:
		return fmt.Errorf("explorer control %q: %w", c.Name, c.err)
	case c.Name == "":
		return fmt.Errorf("explorer control %v has no Name: give each control a label", c.Values)
	case len(c.Values) == 0:
		return fmt.Errorf("explorer control %q has no Values: give it at least one choice", c.Name)
	case c.Default < 0 || c.Default >= len(c.Values):
		return fmt.Errorf("explorer control %q: default index %d is outside 0..%d: the default must be one of %v", c.Name, c.Default, len(c.Values)-1, c.Values)
	case c.Set == nil:
		return fmt.Errorf("explorer control %q has no Set function", c.Name)
	case c.Numbers != nil && len(c.Numbers) != len(c.Values):
		return fmt.Errorf("explorer control %q: %d Numbers for %d Values", c.Name, len(c.Numbers), len(c.Values))
	}
	return nil
}

// FieldSlider is a slider over values of a setting of lbsim's table
// (lbsim.Fields, by name): the field's Label names it, its Set applies the
// value, starting at def.
func FieldSlider(name string, values []float64, def float64) Control {
	f, err := field(name)
	c := Slider(f.Label, values, def, func(cfg *lbsim.Config, x float64) error {
		return f.Set(cfg, strconv.FormatFloat(x, 'g', -1, 64))
	})
	c.err = cmp.Or(c.err, err)
	return c
}

// FieldMenu is a menu of a setting of lbsim's table (lbsim.Fields, by
// name): its Choices (every registered policy, size law or arrival process
// by its example spec, "ll:d=2", "sita:c=20", ...; the disciplines) and
// the extra values given ("jsq", "ll:d=3", ...), starting at def.
func FieldMenu(name, def string, extra ...string) Control {
	f, err := field(name)
	var options []string
	for _, ch := range f.Choices() {
		options = append(options, ch.Example)
	}
	c := Menu(f.Label, append(options, extra...), def, func(cfg *lbsim.Config, v string) error { return f.Set(cfg, v) })
	for _, v := range extra {
		if err == nil {
			var probe lbsim.Config
			err = f.Set(&probe, v)
		}
	}
	c.err = err
	return c
}

// field is the setting of that name in lbsim's table.
func field(name string) (lbsim.Field, error) {
	var names []string
	for _, f := range lbsim.Fields() {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return lbsim.Field{Label: name}, fmt.Errorf("no setting is named %q; the settings are %s", name, strings.Join(names, ", "))
}

// PolicyMenu chooses among every registered policy (the policy Field's
// Choices) by its example spec, and the extra specs given, starting at def.
func PolicyMenu(def string, extra ...string) Control { return FieldMenu("policy", def, extra...) }

// ServersSlider sets the number of servers K.
func ServersSlider(def int) Control { return countSlider("servers", def) }

// countSlider is a slider of a count over 1, 2, 5, 10, ... 1000 on a log axis.
func countSlider(name string, def int) Control {
	c := FieldSlider(name, []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}, float64(def))
	c.LogX = true
	return c
}

// LoadSlider sets the load rho from 0.05 to 0.99 in steps of 0.01.
func LoadSlider(def float64) Control {
	var loads []float64
	for i := 5; i <= 99; i++ {
		loads = append(loads, float64(i)/100)
	}
	return FieldSlider("load", loads, def)
}

// SizesMenu chooses the job-size law among every registered family (the
// sizes Field's Choices) by its example spec ("exp:mean=1",
// "h2:mean=1,scv=10", the handout's "twopoint:xm=1,xM=1000,beta=0.8", ...),
// and the extra specs given, starting at def. The SCV of the laws that have
// one to set (H2, Pareto) comes from SCVSlider, which must follow this menu.
func SizesMenu(def string, extra ...string) Control { return FieldMenu("sizes", def, extra...) }

// SCVSlider sets the squared coefficient of variation of the size laws that
// have a WithSCV method (H2, Pareto), keeping their mean; the other laws
// have a fixed SCV and ignore it.
func SCVSlider(def float64) Control {
	c := Slider("size SCV", []float64{1, 2, 4, 10, 20, 50, 100, 200}, def, func(cfg *lbsim.Config, scv float64) error {
		s, ok := cfg.Sizes.(interface {
			WithSCV(scv float64) (lbsim.SizeLaw, error)
		})
		if !ok {
			return nil
		}
		var err error
		cfg.Sizes, err = s.WithSCV(scv)
		return err
	})
	c.LogX = true
	return c
}

// RefreshSlider sets the board refresh period T (0: the policy reads live state).
func RefreshSlider(def float64) Control {
	return FieldSlider("refresh", []float64{0, 0.5, 1, 2, 5, 10, 20, 50, 100}, def)
}

// DispatchersSlider sets M, the number of dispatchers, each deciding on
// its own knowledge (lbsim.Config.Dispatchers): on a board its own tally,
// for JIQ its own I-queue.
func DispatchersSlider(def int) Control { return countSlider("dispatchers", def) }

// TallyMenu sets whether the dispatcher adds its own sends since the last
// refresh to the board: off or on.
func TallyMenu(def bool) Control {
	f, err := field("tally")
	c := Menu(f.Label, []string{"off", "on"}, map[bool]string{false: "off", true: "on"}[def], func(cfg *lbsim.Config, v string) error {
		return f.Set(cfg, strconv.FormatBool(v == "on"))
	})
	c.err = err
	return c
}

// DisciplineMenu sets the servers' discipline, one of the field's values
// (FCFS, processor sharing, SRPT).
func DisciplineMenu(def string) Control { return FieldMenu("discipline", def) }

// FastShareSlider sets the share of fast servers, for two machine
// generations: the first round(share K) servers get speed 2 (or
// FastSpeedSlider's, which follows it), the others speed 1. It must follow
// ServersSlider, whose K it reads.
func FastShareSlider(def float64) Control {
	shares := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	return Slider("fast share", shares, def, func(cfg *lbsim.Config, share float64) error {
		cfg.Speeds = lbsim.FastSlowSpeeds(cfg.Servers, share, 2)
		return nil
	})
}

// FastSpeedSlider sets the speed of the fast servers FastShareSlider chose
// (those not of speed 1); it must follow FastShareSlider.
func FastSpeedSlider(def float64) Control {
	return Slider("fast speed", []float64{1, 1.5, 2, 3, 4, 6, 8, 10}, def, func(cfg *lbsim.Config, mu float64) error {
		if len(cfg.Speeds) != cfg.Servers {
			return fmt.Errorf("fast speed: %d speeds for K = %d servers: put nb.FastShareSlider before this slider (it chooses the fast servers)", len(cfg.Speeds), cfg.Servers)
		}
		sp := slices.Clone(cfg.Speeds)
		for k, s := range sp {
			if s != 1 {
				sp[k] = mu
			}
		}
		cfg.Speeds = sp
		return nil
	})
}
