package nbrun

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// A report made again from the same executed outputs (its results all from the cache) comes
// out byte for byte the same page: nbconvert's export, MathJax's typesetting and Chromium's
// print are functions of the page and of the tools' versions. [Publish] keeps what is costly
// to make again beside the report, in hidden files of the report folder, and reuses it when
// the page is the same:
//
//   - .NAME.typeset-KEY.html: the page as MathJax typeset it (see [selfContain]);
//   - .NAME.print.json: the hash of the report view that NAME.pdf was printed from, and of
//     that PDF: the same view (and tools) reuses NAME.pdf as it is, when its hash matches.
//
// Keys hash the input page, the tools' versions (Chromium, MathJax, ...: toolVersions) and
// reuseVersion, which changes with the code that typesets and prints.
const reuseVersion = "1"

func reuseKey(page []byte) string {
	tools, _ := toolVersions()
	h := sha256.New()
	h.Write([]byte(reuseVersion + "\x00" + tools + "\x00" + mathJaxSVG + "\x00" + mathConfig + "\x00"))
	h.Write(page)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// typesetCached returns the typeset DOM kept for page in cache, if any.
func typesetCached(cache string, page []byte) (string, bool) {
	if cache == "" {
		return "", false
	}
	data, err := os.ReadFile(cache + "-" + reuseKey(page) + ".html")
	if err != nil || len(data) == 0 {
		return "", false
	}
	return string(data), true
}

// keepTypeset keeps dom, typeset from page, in cache, and removes what it kept for other pages.
func keepTypeset(cache string, page []byte, dom string) {
	if cache == "" {
		return
	}
	path := cache + "-" + reuseKey(page) + ".html"
	old, _ := filepath.Glob(cache + "-*.html")
	if files.Replace(path, []byte(dom), nil) != nil {
		return
	}
	for _, o := range old {
		if o != path {
			os.Remove(o)
		}
	}
}

// printRecord is .NAME.print.json.
type printRecord struct {
	View string `json:"view"` // reuseKey of the report view printed
	PDF  string `json:"pdf"`  // SHA-256 of the PDF
}

func printRecordPath(pdf string) string {
	return filepath.Join(filepath.Dir(pdf), "."+strings.TrimSuffix(filepath.Base(pdf), ".pdf")+".print.json")
}

// printedBefore returns the PDF at pdf if it was printed from the same view.
func printedBefore(pdf string, view []byte) ([]byte, bool) {
	data, err := os.ReadFile(printRecordPath(pdf))
	if err != nil {
		return nil, false
	}
	var r printRecord
	if json.Unmarshal(data, &r) != nil || r.View != reuseKey(view) {
		return nil, false
	}
	out, err := os.ReadFile(pdf)
	if err != nil {
		return nil, false
	}
	sum := sha256.Sum256(out)
	if hex.EncodeToString(sum[:]) != r.PDF {
		return nil, false
	}
	return out, true
}

// recordPrint records that the PDF at pdf was printed from view.
func recordPrint(pdf string, view []byte) {
	data, err := os.ReadFile(pdf)
	if err != nil {
		return
	}
	sum := sha256.Sum256(data)
	rec, _ := json.Marshal(printRecord{View: reuseKey(view), PDF: hex.EncodeToString(sum[:])})
	_ = files.Replace(printRecordPath(pdf), append(rec, '\n'), nil)
}
