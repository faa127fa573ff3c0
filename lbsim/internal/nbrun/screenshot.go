package nbrun

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Chromium is the browser used for screenshots: Debian's chromium package.
const Chromium = "/usr/bin/chromium"

// screenshotTimeout bounds one Chromium run; a report renders in a few seconds.
const screenshotTimeout = 2 * time.Minute

// Screenshot renders the HTML file htmlPath in headless Chromium in a 1280x4000 window and
// writes a PNG screenshot to pngPath. Chromium runs with a fresh profile and without network
// side traffic, so runs do not influence each other.
func Screenshot(htmlPath, pngPath string) error {
	if _, err := os.Stat(Chromium); err != nil {
		return fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's chromium)", Chromium)
	}
	src, err := filepath.Abs(htmlPath)
	if err != nil {
		return err
	}
	dst, err := filepath.Abs(pngPath)
	if err != nil {
		return err
	}
	profile, err := os.MkdirTemp("", "nbrun-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	_ = os.Remove(dst) // a stale screenshot must not pass for a new one
	ctx, cancel := context.WithTimeout(context.Background(), screenshotTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, Chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir="+profile, "--screenshot="+dst, "--window-size=1280,4000",
		"file://"+src)
	cmd.WaitDelay = 5 * time.Second
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("chromium screenshot (timeout %v): %w\n%s", screenshotTimeout, err, tail(buf.String(), 20))
	}
	if _, err := os.Stat(dst); err != nil {
		return fmt.Errorf("chromium wrote no screenshot: %w\n%s", err, tail(buf.String(), 20))
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
