package nb

import (
	"fmt"
	"slices"
	"strconv"

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

// PolicyMenu chooses among every registered policy (lbsim.PolicyTypes), each
// by its example spec ("ll:d=2", "sita:c=20", ...), and the extra specs given
// ("jsq", "ll:d=3", ...), starting at def.
func PolicyMenu(def string, extra ...string) Control {
	return registryMenu("policy", lbsim.PolicyTypes(), def, extra, lbsim.ParsePolicy,
		func(cfg *lbsim.Config, p lbsim.Policy) { cfg.Policy = p })
}

// registryMenu chooses among a registry's families by their example specs,
// and the extra specs, each parsed by parse and set by set.
func registryMenu[T any](name string, fams []lbsim.Family[T], def string, extra []string,
	parse func(string) (T, error), set func(*lbsim.Config, T)) Control {
	var specs []string
	for _, f := range fams {
		specs = append(specs, f.Example)
	}
	c := Menu(name, append(specs, extra...), def, func(cfg *lbsim.Config, spec string) error {
		v, err := parse(spec)
		set(cfg, v)
		return err
	})
	for _, spec := range extra {
		if _, err := parse(spec); err != nil && c.err == nil {
			c.err = err
		}
	}
	return c
}

// ServersSlider sets the number of servers K.
func ServersSlider(def int) Control {
	return countSlider("servers K", def, func(cfg *lbsim.Config, k int) { cfg.Servers = k })
}

// countSlider is a slider over 1, 2, 5, 10, ... 1000 on a log axis.
func countSlider(name string, def int, set func(cfg *lbsim.Config, n int)) Control {
	c := Slider(name, []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}, float64(def), func(cfg *lbsim.Config, n float64) error {
		set(cfg, int(n))
		return nil
	})
	c.LogX = true
	return c
}

// LoadSlider sets the load rho from 0.05 to 0.99 in steps of 0.01.
func LoadSlider(def float64) Control {
	var loads []float64
	for i := 5; i <= 99; i++ {
		loads = append(loads, float64(i)/100)
	}
	return Slider("load rho", loads, def, func(cfg *lbsim.Config, rho float64) error {
		cfg.Load = rho
		return nil
	})
}

// SizesMenu chooses the job-size law among every registered family
// (lbsim.SizeTypes), each by its example spec ("exp:mean=1",
// "h2:mean=1,scv=10", the handout's "twopoint:xm=1,xM=1000,beta=0.8", ...),
// and the extra specs given, starting at def. The SCV of the laws that
// have one to set (H2, Pareto) comes from SCVSlider, which must follow
// this menu.
func SizesMenu(def string, extra ...string) Control {
	return registryMenu("job sizes", lbsim.SizeTypes(), def, extra, lbsim.ParseSizes,
		func(cfg *lbsim.Config, s lbsim.SizeLaw) { cfg.Sizes = s })
}

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
	return Slider("refresh T", []float64{0, 0.5, 1, 2, 5, 10, 20, 50, 100}, def, func(cfg *lbsim.Config, t float64) error {
		cfg.Refresh = t
		return nil
	})
}

// DispatchersSlider sets M, the number of dispatchers, each deciding on
// its own knowledge (lbsim.Config.Dispatchers): on a board its own tally,
// for JIQ its own I-queue.
func DispatchersSlider(def int) Control {
	return countSlider("dispatchers M", def, func(cfg *lbsim.Config, m int) { cfg.Dispatchers = m })
}

// TallyMenu sets whether the dispatcher adds its own sends since the last
// refresh to the board.
func TallyMenu(def bool) Control {
	d := "off"
	if def {
		d = "on"
	}
	return Menu("tally", []string{"off", "on"}, d, func(cfg *lbsim.Config, v string) error {
		cfg.Tally = v == "on"
		return nil
	})
}

// DisciplineMenu sets the servers' discipline: FCFS or processor sharing.
func DisciplineMenu(def string) Control {
	return Menu("discipline", []string{"fcfs", "ps"}, def, func(cfg *lbsim.Config, v string) error {
		d, err := lbsim.ParseDiscipline(v)
		cfg.Discipline = d
		return err
	})
}

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
