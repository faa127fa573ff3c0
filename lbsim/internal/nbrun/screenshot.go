package nbrun

import (
	"fmt"
	"image"
	"os"
	"path/filepath"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// screenshotSize is the window a screenshot shows: a report's first screens at desktop width.
var screenshotSize = pageSize{1280, 4000}

// Screenshot renders the HTML file htmlPath in headless Chromium (see [onPage]: a fresh
// browser context, no network) in a 1280x4000 window and writes a PNG screenshot to pngPath.
func Screenshot(htmlPath, pngPath string) error {
	src, err := filepath.Abs(htmlPath)
	if err != nil {
		return err
	}
	dst, err := filepath.Abs(pngPath)
	if err != nil {
		return err
	}
	_ = os.Remove(dst) // a stale screenshot must not pass for a new one
	err = onPage(fileURL(src), screenshotSize, func(p *rod.Page) error {
		shot, err := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}.Call(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, shot.Data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	return nil
}

// minInkFraction is the least fraction of pixels that must differ from the most common colour
// (the background) for a screenshot to count as rendered. A report's text alone covers several
// per cent of a 1280x4000 page; a blank or failed render covers none.
const minInkFraction = 0.002

// Blank reports whether img is blank: a single colour, or other colours on fewer than
// minInkFraction of its pixels. The reason says which.
func Blank(img image.Image) (bool, string) {
	b := img.Bounds()
	total := b.Dx() * b.Dy()
	if total == 0 {
		return true, fmt.Sprintf("image is %dx%d", b.Dx(), b.Dy())
	}
	counts := make(map[[4]uint32]int)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			counts[[4]uint32{r, g, bl, a}]++
		}
	}
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	ink := float64(total-top) / float64(total)
	if len(counts) == 1 || ink < minInkFraction {
		return true, fmt.Sprintf("%d distinct colours; %.4f%% of pixels differ from the background, want at least %.2f%%",
			len(counts), 100*ink, 100*minInkFraction)
	}
	return false, ""
}
