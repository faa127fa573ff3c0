package nbrun

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image/png"
	"os"
	"strings"

	"golang.org/x/net/html"
)

// reportErrorMarks is text that must not appear in a report: a Python traceback from nbconvert
// or a failed Go program (see failureMarks).
var reportErrorMarks = append([]string{"Traceback"}, failureMarks...)

// Figure is a PNG image embedded in a report.
type Figure struct {
	Width, Height int
}

// CheckReport checks the HTML report htmlPath and returns its embedded figures:
//
//   - the HTML holds at least one <img> whose src is a data:image/png;base64 URI that decodes to
//     a PNG with non-zero width and height;
//   - its visible text (outside <script> and <style>) holds no "Traceback", "panic:" or
//     "exit status ";
//   - headless Chromium renders it to a non-blank screenshot, written to screenshotPath (see
//     [Screenshot] and [Blank]).
func CheckReport(htmlPath, screenshotPath string) ([]Figure, error) {
	data, err := os.ReadFile(htmlPath)
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", htmlPath, err)
	}
	figs, err := checkHTML(data)
	if err != nil {
		return figs, fmt.Errorf("report %s: %w", htmlPath, err)
	}
	if err := Screenshot(htmlPath, screenshotPath); err != nil {
		return figs, fmt.Errorf("report %s: %w", htmlPath, err)
	}
	shot, err := os.ReadFile(screenshotPath)
	if err != nil {
		return figs, fmt.Errorf("report %s: screenshot: %w", htmlPath, err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return figs, fmt.Errorf("report %s: screenshot %s is not a PNG: %w", htmlPath, screenshotPath, err)
	}
	if blank, why := Blank(img); blank {
		return figs, fmt.Errorf("report %s: screenshot %s is blank: %s", htmlPath, screenshotPath, why)
	}
	return figs, nil
}

// checkHTML parses a report: embedded PNG figures and error text.
func checkHTML(data []byte) ([]Figure, error) {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("HTML does not parse: %w", err)
	}
	var (
		figs []Figure
		errs []error
		text strings.Builder
		walk func(*html.Node)
	)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style"):
			return
		case n.Type == html.TextNode:
			text.WriteString(n.Data)
			text.WriteByte('\n')
		case n.Type == html.ElementNode && n.Data == "img":
			for _, a := range n.Attr {
				if a.Key != "src" {
					continue
				}
				const prefix = "data:image/png;base64,"
				if !strings.HasPrefix(a.Val, prefix) {
					continue
				}
				fig, err := decodePNG(strings.TrimPrefix(a.Val, prefix))
				if err != nil {
					errs = append(errs, fmt.Errorf("figure %d: %w", len(figs)+len(errs)+1, err))
					continue
				}
				figs = append(figs, fig)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	visible := text.String()
	for _, mark := range reportErrorMarks {
		if k := strings.Index(visible, mark); k >= 0 {
			errs = append(errs, fmt.Errorf("report shows %q:\n%s", mark, clip(strings.TrimSpace(visible[lineStart(visible, k):]), 1000)))
		}
	}
	if len(figs) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("no figure: want at least one <img> with a data:image/png;base64 URI (show plots with nb.Figure, or nb.PNG for a PNG of your own)"))
	}
	return figs, errors.Join(errs...)
}

// decodePNG decodes a base64 PNG and returns its size; an empty image is an error.
func decodePNG(b64 string) (Figure, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
	if err != nil {
		return Figure{}, fmt.Errorf("data URI is not base64: %w", err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return Figure{}, fmt.Errorf("data URI is not a PNG: %w", err)
	}
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
		return Figure{}, fmt.Errorf("PNG does not decode: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Figure{}, fmt.Errorf("PNG is %dx%d: want non-zero width and height", cfg.Width, cfg.Height)
	}
	return Figure{Width: cfg.Width, Height: cfg.Height}, nil
}
