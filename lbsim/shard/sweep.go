package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Sweep identifies one sweep: ID is the hex SHA-256 of its canonical
// specification (same spec, same ID, whatever machine or split), Configs is
// the number M of configurations, indexed 0..M-1.
type Sweep struct {
	ID      string
	Configs int
	// Code is the version of the code that computes the rows (see
	// lbsim.CodeVersion); it is written into shard files so that a foreign
	// file can be named as another build's. The ID must cover it too.
	Code string
}

func (s Sweep) code() string {
	if s.Code == "" {
		return "unknown"
	}
	return s.Code
}

// NewSweep returns the Sweep of a canonical specification. The caller is
// responsible for the encoding being canonical (for example encoding/json of
// a struct: fixed field order, no maps with unordered keys).
func NewSweep(canonicalSpec []byte, configs int) (Sweep, error) {
	sum := sha256.Sum256(canonicalSpec)
	s := Sweep{ID: hex.EncodeToString(sum[:]), Configs: configs}
	return s, s.validate()
}

func (s Sweep) validate() error {
	if len(s.ID) != sha256.Size*2 {
		return fmt.Errorf("shard: sweep id %q has %d characters, want %d hex digits; build it with NewSweep", s.ID, len(s.ID), sha256.Size*2)
	}
	if _, err := hex.DecodeString(s.ID); err != nil {
		return fmt.Errorf("shard: sweep id %q is not hexadecimal; build it with NewSweep", s.ID)
	}
	if s.Configs < 0 || s.Configs > MaxConfigs {
		return fmt.Errorf("shard: sweep has %d configurations, want 0 to %d", s.Configs, MaxConfigs)
	}
	for _, r := range s.Code {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("shard: code version %q must be letters, digits, '-', '_' or '.'", s.Code)
		}
	}
	return nil
}
