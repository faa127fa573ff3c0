package files

import (
	"fmt"
	"os"
	"path/filepath"
)

// CacheDir is the folder of lbsim's caches (the notebooks' results, parsed
// traces and size files): $LBSIM_CACHE_DIR, else $XDG_CACHE_HOME/lbsim,
// else ~/.cache/lbsim. Deleting it drops every cached value.
func CacheDir() (string, error) {
	if d := os.Getenv("LBSIM_CACHE_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "lbsim"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %v; set LBSIM_CACHE_DIR", err)
	}
	return filepath.Join(home, ".cache", "lbsim"), nil
}
