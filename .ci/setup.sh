#!/usr/bin/env bash
# Set-up for lbsim on a fresh Debian machine (also used by the Dockerfile and by CI).
#
# Idempotent and non-interactive: every step checks first and prints "ok: X present" when there
# is nothing to do, so a warm run takes well under five seconds. Steps:
#   1. Go >= 1.26 must be on PATH (we do not install Go).
#   2. Jupyter (nbconvert, nbclient, notebook) from Debian packages, run by /usr/bin/python3.
#   3. Chromium, MathJax and poppler-utils: reports typeset their math at export time (MathJax in
#      headless Chromium), are printed to PDF by Chromium and checked with pdfinfo/pdfimages.
#   4. GoNB and goimports built from this project's go.mod (tool deps) into .bin/, GoNB from a
#      copy of its module patched with .ci/gonb-VERSION.patch (a failed cell fails the run).
#   5. The GoNB Jupyter kernel registered to .bin/gonb, with PATH reaching .bin/ and go, and
#      GOFLAGS=-ldflags=-w (cells build faster without DWARF).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
BIN="$ROOT/.bin"
JUPYTER=/usr/bin/jupyter
APT_PACKAGES=(jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel jupyter-notebook)

step() { echo "setup: $*"; }
ok() { echo "ok: $* present"; }
die() { echo "setup: ERROR: $*" >&2; exit 1; }

# as_root runs a command as root: directly when we are root, else through sudo.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root to run '$*': run this script as root or install sudo"
	fi
}

# apt_install installs Debian packages, updating the package lists once per run.
APT_UPDATED=0
apt_install() {
	command -v apt-get >/dev/null 2>&1 ||
		die "apt-get not found: this script installs Jupyter and Chromium from Debian packages.
  On other systems install them yourself: jupyter (nbconvert >= 6, nbclient, notebook, ipykernel,
  reachable as $JUPYTER) and chromium (as /usr/bin/chromium), then run this script again."
	if [ "$APT_UPDATED" -eq 0 ]; then
		step "apt-get update"
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
		APT_UPDATED=1
	fi
	step "apt-get install -y $*"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

# 1. Go.
command -v go >/dev/null 2>&1 || die "go not found on PATH: install Go >= 1.26 from https://go.dev/dl/"
GOVERSION="$(go env GOVERSION)" # e.g. go1.26.8
gv="${GOVERSION#go}"
gmajor="${gv%%.*}"
gminor="${gv#*.}"
gminor="${gminor%%[!0-9]*}"
if [ "$gmajor" -lt 1 ] || { [ "$gmajor" -eq 1 ] && [ "$gminor" -lt 26 ]; }; then
	die "found $GOVERSION at $(command -v go); lbsim needs Go >= 1.26: install it from https://go.dev/dl/"
fi
ok "Go $GOVERSION ($(command -v go))"

# 2. Jupyter, on the system python (/usr/bin/python3), not a pyenv/venv python earlier on PATH.
jupyter_ok() {
	[ -x "$JUPYTER" ] && [ -x /usr/bin/jupyter-nbconvert ] && [ -x /usr/bin/jupyter-notebook ] &&
		/usr/bin/python3 -c 'import nbclient, nbconvert, jupyter_client, ipykernel' 2>/dev/null
}
if jupyter_ok; then
	ok "Jupyter ($JUPYTER with nbconvert, nbclient, notebook)"
else
	apt_install "${APT_PACKAGES[@]}"
	jupyter_ok || die "Jupyter still incomplete after apt-get install ${APT_PACKAGES[*]}"
fi

# 3. Chromium (renders, prints and checks the reports), MathJax 2 (typesets their math once,
# at export time) and poppler-utils (pdfinfo, pdfimages, pdftotext for the PDF checks).
report_tools_ok() {
	[ -x /usr/bin/chromium ] && [ -f /usr/share/javascript/mathjax/MathJax.js ] &&
		[ -x /usr/bin/pdfinfo ] && [ -x /usr/bin/pdfimages ] && [ -x /usr/bin/pdftotext ]
}
if report_tools_ok; then
	ok "Chromium, MathJax and poppler-utils"
else
	apt_install chromium libjs-mathjax poppler-utils
	report_tools_ok || die "Chromium, MathJax or poppler-utils missing after apt-get install chromium libjs-mathjax poppler-utils"
fi

# 4. GoNB and goimports, built from go.mod's tool dependencies. GoNB is built from a copy of the
# module go.mod requires, patched with .ci/gonb-VERSION.patch (its header says why: a cell whose
# program fails replies "error", so nbconvert and "Run all" stop at it), through a build-only
# copy of go.mod that replaces the module by the copy: go.mod itself, and the notebooks' own
# builds of gonbui, keep the module as published. The stamp records the inputs of the build, so
# a change of go.mod, go.sum, the patch or the Go version rebuilds the kernel.
gonb_version="$(cd "$ROOT" && go list -m -f '{{.Version}}' github.com/janpfeifer/gonb)"
gonb_patch="$ROOT/.ci/gonb-$gonb_version.patch"
[ -f "$gonb_patch" ] || die "go.mod requires GoNB $gonb_version, but there is no $gonb_patch:
  port the patch of the version before (.ci/gonb-*.patch) to $gonb_version, or require that version"
stamp="$( (cat "$ROOT/go.mod" "$ROOT/go.sum" "$gonb_patch"; echo "$GOVERSION") | sha256sum | cut -d' ' -f1)"
if [ -x "$BIN/gonb" ] && [ -x "$BIN/goimports" ] && [ "$(cat "$BIN/.stamp" 2>/dev/null || true)" = "$stamp" ]; then
	ok "GoNB $gonb_version patched, and goimports ($BIN)"
else
	command -v git >/dev/null 2>&1 || die "git not found: it applies $gonb_patch (apt-get install git)"
	src="$BIN/gonb-$gonb_version-patched"
	step "copy GoNB $gonb_version from the module cache to $src and apply $(basename "$gonb_patch")"
	mkdir -p "$BIN"
	rm -f "$BIN/.stamp"
	(cd "$ROOT" && go mod download github.com/janpfeifer/gonb)
	gonb_dir="$(cd "$ROOT" && go list -m -f '{{.Dir}}' github.com/janpfeifer/gonb)"
	rm -rf "$src"
	mkdir "$src"
	# All but docs/ and examples/ (64 MB of notebooks and images that no package embeds).
	for f in "$gonb_dir"/*; do
		case "${f##*/}" in docs | examples) ;; *) cp -R "$f" "$src/" ;; esac
	done
	chmod -R u+w "$src" # the module cache is read-only
	(cd "$src" && git apply "$gonb_patch") || die "$gonb_patch does not apply to GoNB $gonb_version"
	cp "$ROOT/go.mod" "$BIN/gonb-build.mod"
	cp "$ROOT/go.sum" "$BIN/gonb-build.sum"
	go mod edit -replace="github.com/janpfeifer/gonb=$src" "$BIN/gonb-build.mod"
	step "go build -modfile=$BIN/gonb-build.mod -o $BIN/ github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports"
	(cd "$ROOT" && go build -modfile="$BIN/gonb-build.mod" -o "$BIN/" github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports)
	echo "$stamp" >"$BIN/.stamp"
fi

# 5. The GoNB kernel. gonb --install writes $JUPYTER_DATA_DIR/kernels/gonb/kernel.json (default
# ~/.local/share/jupyter) with argv[0] = this binary; it does not set PATH, so a kernel started by
# a Jupyter launched from anywhere would miss goimports. We add an "env" entry: .bin/ and go's
# directory first, then the launching process's PATH (jupyter_client expands ${PATH}).
# --force_deps: gonb --install otherwise insists on gopls, which only serves auto-complete.
# GOFLAGS: GoNB builds each cell's program, runs it once and drops it; -ldflags=-w leaves out its
# DWARF (debugger data: a panic's stack trace comes from the runtime's own tables), which cuts a
# cell's go build from about 1.1 to 0.9 CPU-s. The kernel's GOFLAGS replaces the user's (an unset
# ${GOFLAGS} would stay literal), so the user's at setup time (`go env GOFLAGS`) follows, and wins.
kernel_dir="${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}/kernels/gonb"
kernel_json="$kernel_dir/kernel.json"
kernel_path="$BIN:$(dirname "$(command -v go)"):\${PATH}"
kernel_goflags="-ldflags=-w"
user_goflags="$(go env GOFLAGS)"
[ -z "$user_goflags" ] || kernel_goflags="$kernel_goflags $user_goflags"
kernel_ok() {
	[ -f "$kernel_json" ] && /usr/bin/python3 - "$kernel_json" "$BIN/gonb" "$kernel_path" "$kernel_goflags" <<'EOF'
import json, sys
spec = json.load(open(sys.argv[1]))
want = [sys.argv[2], "--kernel", "{connection_file}"]
env = spec.get("env", {})
sys.exit(0 if spec["argv"][:3] == want and env.get("PATH") == sys.argv[3] and env.get("GOFLAGS") == sys.argv[4] else 1)
EOF
}
if kernel_ok; then
	ok "GoNB kernel ($kernel_json -> $BIN/gonb)"
else
	step "$BIN/gonb --install --force_deps"
	# Its log warns about gopls even with --force_deps; show the log only when it fails. It runs
	# as ./gonb because gonb --install copies a binary called by a /tmp/... path into the kernel
	# folder (taking it for a `go run` build), and the kernel must use .bin/gonb.
	if ! out="$(cd "$BIN" && ./gonb --install --force_deps 2>&1)"; then
		echo "$out" >&2
		die "$BIN/gonb --install failed"
	fi
	step "set PATH=$kernel_path and GOFLAGS=$kernel_goflags in $kernel_json"
	/usr/bin/python3 - "$kernel_json" "$kernel_path" "$kernel_goflags" <<'EOF'
import json, sys
spec = json.load(open(sys.argv[1]))
spec.setdefault("env", {}).update(PATH=sys.argv[2], GOFLAGS=sys.argv[3])
json.dump(spec, open(sys.argv[1], "w"), indent=1)
print(file=open(sys.argv[1], "a"))
EOF
	kernel_ok || die "GoNB kernel registration in $kernel_json did not take"
fi
echo "setup: done"
