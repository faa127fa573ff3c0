package nbrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// probeID is the element in which the probe script leaves its findings.
const probeID = "lbsim-offline-probe"

// probeScript runs in a copy of a page after it loaded: it records each image's decoding, every
// resource the page fetched (Resource Timing), each link's target, and the rendered text
// (innerText: what a reader sees, hidden elements excluded) outside code (pre, code), where
// TeX would be meant literally.
const probeScript = `<script>
window.addEventListener("load", function () {
  var out = {images: [], resources: [], links: []};
  Array.prototype.forEach.call(document.images, function (im) {
    out.images.push({src: im.src.slice(0, 40), ok: im.complete && im.naturalWidth > 0, w: im.naturalWidth, h: im.naturalHeight});
  });
  performance.getEntriesByType("resource").forEach(function (e) { out.resources.push(e.name); });
  Array.prototype.forEach.call(document.querySelectorAll("a[href]"), function (a) { out.links.push(a.getAttribute("href")); });
  document.querySelectorAll("pre, code").forEach(function (e) { e.remove(); });
  out.text = document.body.innerText;
  var p = document.createElement("pre");
  p.id = "` + probeID + `";
  p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
});
</script>`

// Offline is what the browser saw of a page opened offline (see [CheckOffline]).
type Offline struct {
	Images    int      // images that decoded
	Resources []string // URLs the page fetched (want none)
	Text      string   // rendered text outside code
}

// rawTeX finds TeX that was not typeset: $...$, \(, \[ or a backslash command (\frac, \rho).
var rawTeX = regexp.MustCompile(`\$[^$\s][^$\n]*\$|\\[(\[]|\\[A-Za-z]{2,}`)

// CheckOffline copies the page htmlPath, with the files it links to when withLinks, into a fresh
// folder outside the repository and opens the copy in headless Chromium with the network closed
// (every host name resolves to nothing). It fails when the page would load anything (a src,
// link, url() or script in the file, or a fetch the browser recorded), when an image does not
// decode, when fewer than minImages images decode, when TeX shows in the rendered text, or when
// a link does not lead to a file in the copied folder.
func CheckOffline(htmlPath string, minImages int, withLinks bool) (Offline, error) {
	var res Offline
	data, err := os.ReadFile(htmlPath)
	if err != nil {
		return res, err
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return res, fmt.Errorf("%s does not parse: %w", htmlPath, err)
	}
	var errs []error
	if l := loads(doc); len(l) > 0 {
		errs = append(errs, fmt.Errorf("the file would load %d resources, the first: %s", len(l), l[0]))
	}
	if s := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Script }); len(s) > 0 {
		errs = append(errs, fmt.Errorf("the file has %d <script> elements, want none (a report runs no code)", len(s)))
	}
	dir, err := os.MkdirTemp("", "lbsim-offline-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	name := filepath.Base(htmlPath)
	if withLinks {
		for _, a := range findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.A && attr(n, "href") != "" }) {
			href := attr(a, "href")
			if strings.HasPrefix(href, "#") {
				continue
			}
			if strings.Contains(href, ":") || strings.HasPrefix(href, "/") || strings.Contains(href, "..") {
				errs = append(errs, fmt.Errorf("link %q does not stay in the page's folder: use a relative path", href))
				continue
			}
			if err := copyFile(filepath.Join(filepath.Dir(htmlPath), href), filepath.Join(dir, href)); err != nil {
				errs = append(errs, fmt.Errorf("link %q: %w", href, err))
			}
		}
	}
	probe := bytes.Replace(data, []byte("</body>"), []byte(probeScript+"</body>"), 1)
	if err := os.WriteFile(filepath.Join(dir, name), probe, 0o644); err != nil {
		return res, err
	}
	var findings string
	err = onPage(fileURL(filepath.Join(dir, name)), pageSize{}, func(p *rod.Page) error {
		// The probe runs at the load event, which onPage waited for.
		done, err := waitFor(p, "#"+probeID, probeTimeout)
		if err != nil || !done {
			return err
		}
		findings, err = evalString(p, "document.getElementById("+strconv.Quote(probeID)+").textContent")
		return err
	})
	if err != nil {
		return res, fmt.Errorf("%s: %w", htmlPath, err)
	}
	got, err := readProbe(findings)
	if err != nil {
		return res, fmt.Errorf("%s: %w", htmlPath, err)
	}
	res.Resources, res.Text = got.Resources, got.Text
	for i, im := range got.Images {
		if !im.OK {
			errs = append(errs, fmt.Errorf("image %d (%s...) does not decode in the browser", i+1, im.Src))
			continue
		}
		res.Images++
	}
	if res.Images < minImages {
		errs = append(errs, fmt.Errorf("%d images decoded, want at least %d", res.Images, minImages))
	}
	if len(got.Resources) > 0 {
		errs = append(errs, fmt.Errorf("the page fetched %d resources, the first: %s", len(got.Resources), got.Resources[0]))
	}
	if m := rawTeX.FindAllStringIndex(got.Text, -1); len(m) > 0 {
		k := m[0][0]
		errs = append(errs, fmt.Errorf("%d pieces of raw TeX in the rendered text, the first %q in: %s",
			len(m), got.Text[m[0][0]:m[0][1]], clip(got.Text[max(0, k-80):], 200)))
	}
	if err := errors.Join(errs...); err != nil {
		return res, fmt.Errorf("offline check of %s (copied to %s): %w", htmlPath, dir, err)
	}
	return res, nil
}

type probeResult struct {
	Images []struct {
		Src  string `json:"src"`
		OK   bool   `json:"ok"`
		W, H int
	} `json:"images"`
	Resources []string `json:"resources"`
	Links     []string `json:"links"`
	Text      string   `json:"text"`
}

// probeTimeout bounds the wait for the probe's findings after the page's load event.
const probeTimeout = 10 * time.Second

// readProbe reads the probe's findings, the JSON text of its element.
func readProbe(findings string) (probeResult, error) {
	var r probeResult
	if findings == "" {
		return r, errors.New("the probe script left no result: the page did not finish loading")
	}
	if err := json.Unmarshal([]byte(findings), &r); err != nil {
		return r, fmt.Errorf("probe result: %w", err)
	}
	return r, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
