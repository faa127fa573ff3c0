package nbrun

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

// runMetaKey is the executed notebook's metadata entry that records how the run went (a
// runlog.Summary): [Execute] writes it, [Publish] reads it for the quick-run banner and the
// index. The outputs cannot tell: a report reads the same whether its results were computed or
// came from the cache.
const runMetaKey = "lbsim_run"

// sourceMetaKey is the executed notebook's metadata entry that names its source notebook (an
// absolute path): [Publish] makes the students' notebook from the source, whose metadata the
// kernel has not filled in (language_info), when its cells are still those that ran.
const sourceMetaKey = "lbsim_source"

// writeRun records s and the source notebook's path (unless "") in the metadata of the notebook at path;
// the cells are kept as they are.
func writeRun(path string, s runlog.Summary, source string) error {
	nb, meta, err := readNotebook(path)
	if err != nil {
		return err
	}
	if meta[runMetaKey], err = json.Marshal(s); err != nil {
		return err
	}
	if source != "" {
		if meta[sourceMetaKey], err = json.Marshal(source); err != nil {
			return err
		}
	}
	if nb["metadata"], err = json.Marshal(meta); err != nil {
		return err
	}
	out, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return err
	}
	return files.Replace(path, append(out, '\n'), nil)
}

// readRun returns the run recorded in the notebook at path; a notebook that [Execute] did not
// run (nbconvert by hand, an old copy) records none: an empty summary.
func readRun(path string) (runlog.Summary, error) {
	var s runlog.Summary
	_, meta, err := readNotebook(path)
	if raw, ok := meta[runMetaKey]; ok && err == nil {
		if err := json.Unmarshal(raw, &s); err != nil {
			return s, fmt.Errorf("notebook %s: metadata %s: %w", path, runMetaKey, err)
		}
	}
	return s, err
}

// readNotebook reads a notebook's JSON: its top-level entries and its metadata, unparsed.
func readNotebook(path string) (nb, meta map[string]json.RawMessage, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, nil, fmt.Errorf("notebook %s is not JSON: %w", path, err)
	}
	meta = map[string]json.RawMessage{}
	if raw, ok := nb["metadata"]; ok {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, nil, fmt.Errorf("notebook %s: metadata: %w", path, err)
		}
	}
	return nb, meta, nil
}
