package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
)

// debianPackages are the packages that bring the proxies: their binaries
// are /usr/sbin/haproxy and /usr/sbin/nginx.
var debianPackages = []string{"haproxy", "nginx"}

// binaries are the proxies found: a path, or "" when missing.
type binaries struct {
	HAProxy, Nginx               string
	HAProxyVersion, NginxVersion string // first line of haproxy -vv, nginx -V
}

func (b binaries) has(proxy string) bool {
	switch proxy {
	case "haproxy":
		return b.HAProxy != ""
	case "nginx":
		return b.Nginx != ""
	}
	return false
}

// lookProxies finds the binaries on PATH and in /usr/sbin (not on a plain
// user's PATH on Debian).
func lookProxies() binaries {
	var b binaries
	b.HAProxy = look("haproxy")
	b.Nginx = look("nginx")
	if b.HAProxy != "" {
		b.HAProxyVersion = firstLine(exec.Command(b.HAProxy, "-vv"))
	}
	if b.Nginx != "" {
		b.NginxVersion = firstLine(exec.Command(b.Nginx, "-V"))
	}
	return b
}

func look(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, dir := range []string{"/usr/sbin", "/usr/local/sbin"} {
		p := dir + "/" + name
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func firstLine(cmd *exec.Cmd) string {
	out, err := cmd.CombinedOutput() // nginx -V writes to stderr
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if err != nil && line == "" {
		return "(" + err.Error() + ")"
	}
	return line
}

// policyRC is Debian's hook that decides whether a package's maintainer
// scripts may start its service (invoke-rc.d): exit 101 denies.
const policyRC = "/usr/sbin/policy-rc.d"

// ensureProxies installs the missing proxies from Debian's packages when
// install is set: apt-get update, then apt-get install -y, as root or through
// sudo -n (never a password prompt), with a policy-rc.d that denies the
// packages' service starts for the time of the install (unless the machine
// has one). The proxies run later as plain processes with their own
// configuration; the packages still enable their systemd units, which stay
// stopped. It returns errNoProxies when neither proxy is there in the
// end and nothing could be installed.
func ensureProxies(install bool, log io.Writer) (binaries, error) {
	b := lookProxies()
	if b.HAProxy != "" && b.Nginx != "" || !install {
		return b, missing(b)
	}
	prefix, how := privilege()
	if how == "" {
		fmt.Fprintf(log, "proxycheck: haproxy or nginx missing, and not root and no password-less sudo: not installing\n")
		return b, missing(b)
	}
	run := func(args ...string) error {
		full := append(append([]string{}, prefix...), args...)
		fmt.Fprintf(log, "proxycheck: running (%s) %s\n", how, strings.Join(full, " "))
		cmd := exec.Command(full[0], full[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdout, cmd.Stderr = log, log
		return cmd.Run()
	}
	// Debian's maintainer scripts start a package's service unless
	// policy-rc.d says no (exit 101): say no while installing, unless the
	// machine has its own policy already.
	if _, err := os.Stat(policyRC); errors.Is(err, fs.ErrNotExist) {
		if err := run("sh", "-c", "printf '#!/bin/sh\\nexit 101\\n' > "+policyRC+" && chmod 755 "+policyRC); err != nil {
			fmt.Fprintf(log, "proxycheck: could not write %s (%v): the packages may start their services\n", policyRC, err)
		} else {
			defer func() {
				if err := run("rm", "-f", policyRC); err != nil {
					fmt.Fprintf(log, "proxycheck: could not remove %s: %v; remove it by hand\n", policyRC, err)
				}
			}()
		}
	}
	if err := run("apt-get", "update"); err != nil {
		fmt.Fprintf(log, "proxycheck: apt-get update failed: %v\n", err)
	} else if err := run(append([]string{"apt-get", "install", "-y", "--no-install-recommends"}, debianPackages...)...); err != nil {
		fmt.Fprintf(log, "proxycheck: apt-get install failed: %v\n", err)
	}
	b = lookProxies()
	return b, missing(b)
}

// missing is errNoProxies when neither proxy is there.
func missing(b binaries) error {
	if b.HAProxy == "" && b.Nginx == "" {
		return errNoProxies
	}
	return nil
}

// privilege is how this process can run apt-get: as root (no prefix), with
// sudo -n, or not at all (how = "").
func privilege() (prefix []string, how string) {
	if os.Geteuid() == 0 {
		return nil, "root"
	}
	sudo, err := exec.LookPath("sudo")
	if err != nil {
		return nil, ""
	}
	if exec.Command(sudo, "-n", "true").Run() != nil {
		return nil, ""
	}
	return []string{sudo, "-n"}, "sudo"
}
