package nbrun

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// pngURI returns a data URI of a w x h PNG.
func pngURI(t *testing.T, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// zeroWidthPNG returns a data URI of a PNG whose header says width 0 (with a valid CRC).
func zeroWidthPNG(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// 8-byte signature, then the IHDR chunk: length(4) "IHDR"(4) width(4) height(4) ... CRC.
	copy(b[16:20], []byte{0, 0, 0, 0})
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
}

func TestCheckHTML(t *testing.T) {
	fig := pngURI(t, 30, 20)
	tests := []struct {
		name     string
		html     string
		wantFigs []Figure
		wantErr  string // "" for none
	}{
		{"one figure", `<p>ok</p><img src="` + fig + `">`, []Figure{{30, 20}}, ""},
		{"two figures", `<img src="` + fig + `"><img src="` + pngURI(t, 7, 5) + `">`, []Figure{{30, 20}, {7, 5}}, ""},
		{"error words in script and style are not shown", `<script>"panic:"</script><style>/* Traceback */</style><img src="` + fig + `">`, []Figure{{30, 20}}, ""},
		{"no figure", `<p>just text</p><img src="figure.png">`, nil, "no figure"},
		{"not base64", `<img src="data:image/png;base64,@@@@">`, nil, "figure 1: data URI is not base64"},
		{"not a PNG", `<img src="data:image/png;base64,` + base64.StdEncoding.EncodeToString([]byte("GIF89a")) + `">`, nil, "figure 1: data URI is not a PNG"},
		{"zero-width PNG", `<img src="` + zeroWidthPNG(t) + `">`, nil, "figure 1: data URI is not a PNG"},
		{"traceback", `<img src="` + fig + `"><pre>Traceback (most recent call last):</pre>`, []Figure{{30, 20}}, `report shows "Traceback"`},
		{"panic", `<img src="` + fig + `"><pre>out
panic: runtime error</pre>`, []Figure{{30, 20}}, "report shows \"panic:\":\npanic: runtime error"},
		{"exit status", `<img src="` + fig + `"><pre>exit status 3</pre>`, []Figure{{30, 20}}, `report shows "exit status "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			figs, err := checkHTML([]byte("<html><body>" + tt.html + "</body></html>"))
			if len(figs) != len(tt.wantFigs) {
				t.Errorf("figures = %v, want %v", figs, tt.wantFigs)
			}
			for i := range min(len(figs), len(tt.wantFigs)) {
				if figs[i] != tt.wantFigs[i] {
					t.Errorf("figure %d = %v, want %v", i, figs[i], tt.wantFigs[i])
				}
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestBlank(t *testing.T) {
	white := color.RGBA{255, 255, 255, 255}
	page := func(inkPixels int) image.Image {
		img := image.NewRGBA(image.Rect(0, 0, 100, 100)) // 10000 pixels
		for y := range 100 {
			for x := range 100 {
				img.Set(x, y, white)
			}
		}
		for i := range inkPixels {
			img.Set(i%100, i/100, color.RGBA{uint8(i), 0, 0, 255})
		}
		return img
	}
	tests := []struct {
		name string
		img  image.Image
		want bool
	}{
		{"one colour", page(0), true},
		{"one dot: 0.01% ink", page(1), true},
		{"below threshold: 0.19% ink", page(19), true},
		{"at threshold: 0.2% ink", page(20), false},
		{"text-like: 5% ink", page(500), false},
		{"empty", image.NewRGBA(image.Rect(0, 0, 0, 0)), true},
	}
	for _, tt := range tests {
		if got, why := Blank(tt.img); got != tt.want {
			t.Errorf("%s: Blank = %v (%s), want %v", tt.name, got, why, tt.want)
		}
	}
}

// TestScreenshotBlankPage checks that an empty page is reported blank, and a page with text is
// not: the screenshot check can fail.
func TestScreenshotBlankPage(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		body  string
		blank bool
	}{
		{"", true},
		{strings.Repeat("<h1>Waiting time versus load</h1>", 40), false},
	} {
		page := dir + "/page.html"
		if err := writeFile(page, "<html><body>"+tt.body+"</body></html>"); err != nil {
			t.Fatal(err)
		}
		shot := dir + "/page.png"
		if err := Screenshot(page, shot); err != nil {
			t.Fatal(err)
		}
		img, err := decodeFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 4000 {
			t.Errorf("screenshot is %dx%d, want the 1280x4000 window", b.Dx(), b.Dy())
		}
		if got, why := Blank(img); got != tt.blank {
			t.Errorf("body %.30q: Blank = %v (%s), want %v", tt.body, got, why, tt.blank)
		}
	}
}
