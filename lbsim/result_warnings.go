package lbsim

import (
	"encoding/json"
	"strings"
)

// Warning is a reason not to take a number at face value: the rule that
// fired (one of [Rules]), and what it means for this run and what to do.
type Warning struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

func (w Warning) String() string { return w.Rule + ": " + w.Message }

// Warnings is a result's list of warnings; empty when the run can be trusted.
type Warnings []Warning

// String joins the warnings with "; " (one CSV or table cell).
func (ws Warnings) String() string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.String()
	}
	return strings.Join(parts, "; ")
}

// Has reports whether the rule fired.
func (ws Warnings) Has(rule string) bool {
	for _, w := range ws {
		if w.Rule == rule {
			return true
		}
	}
	return false
}

// MarshalJSON writes the list, [] when empty (never null).
func (ws Warnings) MarshalJSON() ([]byte, error) {
	if ws == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Warning(ws))
}
