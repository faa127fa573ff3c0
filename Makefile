# lbsim: the two commands of the README, plus the optional notebook server.
# Each runs .ci/setup.sh first (quick when everything is installed).

SETUP := .ci/setup.sh
GO ?= go
# NOTEBOOK_IP=0.0.0.0 serves other machines (the Dockerfile does this); root needs --allow-root.
NOTEBOOK_IP ?= localhost
NOTEBOOK_PORT ?= 8888
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: reports test notebook

## reports: execute every notebooks/*.ipynb at full size and write reports/NAME.html
# A notebook whose report is up to date is kept; REPORTS_FLAGS=-force runs them all.
REPORTS_FLAGS ?=
reports:
	$(SETUP)
	$(GO) run ./lbsim/cmd/nbreports -out reports $(REPORTS_FLAGS)

## test: go vet and the whole test suite, notebooks executed quick and required
# -count=1: go test's result cache does not see the notebooks' inputs (the kernel compiles the
# simulator in a subprocess), so a cached notebook pass could be stale.
test:
	$(SETUP)
	$(GO) vet ./...
	LBSIM_REQUIRE_NOTEBOOKS=1 LBSIM_REQUIRE_PROXIES=1 LBSIM_QUICK=1 $(GO) test -count=1 -timeout 60m ./...

## notebook: interactive Jupyter Notebook server on notebooks/ (http://localhost:8888)
notebook:
	$(SETUP)
	/usr/bin/jupyter notebook --notebook-dir=notebooks --ip=$(NOTEBOOK_IP) --port=$(NOTEBOOK_PORT) --no-browser $(ALLOW_ROOT)

## proxies: lbsim against real HAProxy and nginx on 127.0.0.1, at most 10 minutes, not part of test
# (needs only Go, not .ci/setup.sh: the command installs the Debian packages haproxy and nginx if missing)
.PHONY: proxies
proxies:
	$(GO) run ./lbsim/cmd/proxycheck
