# blackhole-lab. `make help` lists the targets.
SHELL := /bin/bash
PYTHON ?= python3
override VENV := .venv
override PY := $(VENV)/bin/python
# Knobs given on the command line (make scenario=x TCP_RETRIES2=5) reach the harness's environment
# by themselves; nothing is exported here, so an unset knob stays unset rather than empty.
# A value never reaches a shell: a recipe names a knob as "$$NAME" (the environment's value, quoted
# by the shell, never re-read as a command) or the harness reads it from its environment; a user's
# value is never pasted into a recipe with $(NAME). tests/cli/test_makefile_values.py holds that.

.PHONY: test-host test-guest bench-test screenshots bench-explain check plan-check guest-tools-if-control plan replay soak-interrupt help setup host guest-tools images venv up down clean status test test-unit lint test-slow test-kernel kernel-matrix bench-guest sysctl-dumps bench-up bench-matrix bench-scale bench-cluster-scale bench-node-agent bench-namespaces bench-connect-probe bench-db-images explain run scenarios report baseline check-baseline workshop workshop-docs workshop-check hand-in collect exercise compare compare-control-planes kube bench-kube cluster-up cluster-down cluster-status cluster-check test-cluster reference
# Prerequisites of other targets, not called by hand (docs/reference.md lists them; every other
# target is in `make help`: tests/unit/test_lists.py).
INTERNAL_TARGETS := check plan-check host guest-tools guest-tools-if-control images venv run kube

# `make scenario=<id>` runs scenarios/<id>.yaml; plain `make` shows the help.
ifdef scenario
.DEFAULT_GOAL := run
else
.DEFAULT_GOAL := help
endif

# Every knob given (make's command line, the environment) is checked before anything is
# installed, built or started, with the Python the venv is made from (harness/settings/: standard
# library only): a misspelt or unused knob, a bad value, an unknown scenario or kernel is one line
# and exit 2. Make exports its command-line variables, so the check reads their values there.
GIVEN := $(strip $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v)))
override BLACKHOLE_GIVEN := $(GIVEN)
override BLACKHOLE_GOALS := $(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))
export BLACKHOLE_GIVEN BLACKHOLE_GOALS
export PYTHON
check:
	@"$$PYTHON" -m harness.settings check

# The scenario itself, its overrides applied and parsed as a run would (this needs the venv's
# YAML reader), still before Docker or an image.
plan-check: check venv
	@$(PY) -m harness plan "$$scenario" --check

help: check
	@echo "make scenario=ID   run a scenario (make scenarios lists them); e.g. make scenario=lvs-switchover"
	@echo "                   knobs: TCP_RETRIES2=N WARMUP_S=S OBSERVE_S=S LB_DATAPATH=auto|ipvs|nftables"
	@echo "                          NAMESPACES=container|netns (a client container per cell namespace, or one for all)"
	@echo "                          DB_ENGINE=mariadb|mysql|postgres (MariaDB 10.11, MySQL 9.7 from Debian's unstable suite, PostgreSQL 15)"
	@echo "                          KEEPALIVED=\"delay_loop=2 retry=1 vrrp=sync ...\" (scenarios whose director keepalived runs)"
	@echo "                          CONNECT_PROBE=N (N connects/s through the VIP: connection-setup latency; 0: none)"
	@echo "make plan scenario=ID|FILE  what a run would do (where, cells, steps, model, keepalived.conf, time); nothing started"
	@echo "make explain FROM=dir/  an incident's folder (sysctl.txt, driver.url, keepalived.conf or haproxy.cfg, incident.yaml) answered"
	@echo "make replay FROM=dir/ [FULL=1]  that incident replayed: your cell and the cures the model ranks, in one failover (a guest)"
	@echo "make scenarios     list the scenarios"
	@echo "make report [RUN=dir]  results/index.html of every run; with RUN, re-render that run's page too"
	@echo "make screenshots RUN=dir  that run's page in headless Chromium at 1400 and 800 px: layout checked, PNGs in its screenshots/"
	@echo "make baseline scenario=ID           store the scenario's per-cell results in baselines/"
	@echo "make check-baseline scenario=ID [BASELINE=file]  run again, compare per cell, exit 1 on regression"
	@echo "make up            bring the lab up (installs/builds what is missing)"
	@echo "make down          take this lab down"
	@echo "make clean [ALL=1] remove labs whose owner is gone (found by label, also after a crash); ALL=1: every lab"
	@echo "make test          unit tests, real-lab tests and guest-kernel runs, short scenario variants (~20 min here)"
	@echo "make test-unit     the unit tests only (pure logic, in process, no Docker; about a minute)"
	@echo "make test-host     make test's host part (every test but the guest's); make test-guest: its guest part"
	@echo "make bench-test    make test-unit, then make test, timed; benchmarks/test-time.jsonl"
	@echo "make lint          ruff and mypy (pinned): pyflakes' checks; the types of all of harness/; make test runs it first"
	@echo "make setup         install and build what the lab needs (Docker, Compose, images, venv), nothing started"
	@echo "make status        health of each service of this lab, its director's datapath and kernel"
	@echo "make reference     write docs/reference.md (targets, knobs, scenarios, registries) from the code"
	@echo "make help          this list (the default goal)"
	@echo "make test-slow     the long reproductions (the 15-minute kernel-default blackhole)"
	@echo "make test-kernel [KERNEL=6.1]  the guest-kernel suite (IPVS semantics, netem, kube-proxy IPVS) in one guest"
	@echo "make compare-control-planes [RUNS=\"manual=dir ...\"]  one failover under manual, keepalived, kube-proxy ipvs/nftables, haproxy, patroni, aws-nlb/gcp/azure (emulated), dns"
	@echo "make cluster-up [KERNEL=6.12] [ALLOWED_SYSCTLS=...]  a single-node Kubernetes cluster in a guest, kept (KUBECONFIG: .lab/cluster/kubeconfig)"
	@echo "make cluster-check scenario=ID  would the cluster (KUBECONFIG, or cluster-up's) run each cell? exit 2 naming the kubelet setting if not"
	@echo "make cluster-down  stop it; make cluster-status: is one up, its node Ready, how long its start took"
	@echo "make bench-cluster-scale [SIZES=\"4 8 16\"]  bench-scale's grids as pods on the cluster's one node: error vs cells per node"
	@echo "make bench-node-agent [KUBECONFIG=..]  a node command through the node agent: a kubectl exec each vs the exec sessions"
	@echo "make test-cluster  the cluster's tests: up, pods from the lab's images, a Service through kube-proxy IPVS, down"
	@echo "make kernel-matrix scenario=ID [KERNELS=\"host 6.1 6.12\"]  run on each kernel, compare, store baselines"
	@echo "make bench-guest [KERNELS=\"6.1 6.12\"]  guest disk build, boot, engine, lab up, a short run; results/bench/"
	@echo "make sysctl-dumps [KERNELS=\"5.10 6.1 6.12 7.3\"]  sysctl -a of each guest kernel into tests/sysctl_dumps/"
	@echo "   KERNEL=6.1|6.12|<package> on scenario, up, baseline, check-baseline runs the lab inside a guest kernel"
	@echo "   LAB=kubernetes on scenario runs the lab as pods on the cluster make cluster-up keeps, or KUBECONFIG's (its kube-proxy the director)"
	@echo "make bench-up      time cold build, warm up --wait and down; stored in results/bench/"
	@echo "make soak-interrupt [RUNS=20] [SEED=n]  runs hit by SIGINT/SIGTERM at random moments: all must end cleanly"
	@echo "make bench-matrix  a short knob matrix from one failover: wall time, model error; results/bench/"
	@echo "make bench-scale [SIZES=\"12 25 50 100 200\"]  ever bigger grids from one failover: error, cost, the ceiling"
	@echo "make bench-namespaces [SIZES=\"12 25 50 100\"]  a namespace per cell: a container each vs netns in one container"
	@echo "make bench-connect-probe [ROUNDS=2]  the connection-setup prober's cost: CPU and model error without/with it"
	@echo "make bench-db-images  each database engine's image: build time (no cache), size, start to healthy"
	@echo "make bench-explain the time explain takes warm, per question (with make, and the harness alone); benchmarks/explain.jsonl"
	@echo "make bench-kube    the kube-proxy plane's programs: cold Go build, cached reuse, image build"
	@echo "make explain TCP_RETRIES2=8 [CLIENT=jdbc socketTimeout=3000] [TCP_USER_TIMEOUT_MS=3000]  the model's answer, the cures ranked"
	@echo "Every knob is checked before anything is installed: a misspelt or unused one is exit 2."
	@echo ".venv/bin/blackhole CMD  the same with exit codes kept: 1 regressed, 2 invalid input, 3 lab failed"
	@echo "make workshop      the exercises (docs/workshop/); make exercise N=1 [PAUSE=1] [PREDICT=...] runs one"
	@echo "make workshop-check [EXERCISES=\"1 2\"]  the evening before: every exercise run, beside its answer"
	@echo "make workshop-docs the kit's pages from the runs here (answers in docs/workshop/facilitator/)"
	@echo "make hand-in ROOM=dir NAME=you [N=2]  your run into the room's folder; make collect ROOM=dir: its page"
	@echo "make compare RUNS=\"[label=]dir ...\"  runs side by side on one page"

# KERNEL=host (default) runs the lab on this machine; KERNEL=6.1|6.12|<package version> inside a
# QEMU guest booting that Debian kernel (docs/guest-kernels.md).
KERNEL ?= host
# A guest's tools: for KERNEL=<a Debian kernel>, and for scenarios whose director keepalived runs
# (it programs IPVS, which this host's kernel lacks: the run boots a guest by itself).
override BLACKHOLE_SCENARIO_FILE := $(if $(filter %.yaml %.yml,$(scenario)),$(scenario),scenarios/$(scenario).yaml)
GUEST_TOOLS := $(if $(filter-out host,$(KERNEL)),guest-tools,$(if $(scenario),guest-tools-if-control))
export BLACKHOLE_SCENARIO_FILE

setup: check venv host images $(GUEST_TOOLS)

guest-tools: check
	@scripts/ensure-guest-tools.sh

guest-tools-if-control: check
	@if grep -qs '^control:' -- "$$BLACKHOLE_SCENARIO_FILE"; then scripts/ensure-guest-tools.sh; fi

host: check
	@scripts/ensure-host.sh

images: check host venv
	@$(PY) -m harness build

venv: check $(VENV)/.installed $(VENV)/bin/blackhole

# The command scripts and CI call where the exit code matters (make turns every failure into 2).
$(VENV)/bin/blackhole: scripts/blackhole $(VENV)/.installed
	@install -m 0755 scripts/blackhole $@

# .venv links to the virtualenv built once per machine for this requirements.txt and Python.
$(VENV)/.installed: requirements.txt
	@scripts/ensure-venv.sh

up: setup
	@$(PY) -m harness up

down: venv
	@$(PY) -m harness down

status: venv
	@$(PY) -m harness status

clean: venv host
	@$(PY) -m harness clean

reference: venv
	@$(PY) -m harness.cli.reference

test-unit: venv
	@$(PY) -m pytest -q -n 2 tests/unit tests/clock

# pyflakes' checks and syntax errors (ruff.toml), then the type checker over all of harness/
# (mypy.ini), before any test runs. mypy's cache is the machine's, as the venv is: it checks
# each file's hash, so a new clone re-reads only what differs (13 s cold, 0.4 s shared, 2026-12-06).
lint: venv
	@$(VENV)/bin/ruff check --quiet harness tests scripts && echo "lint: clean (ruff: harness, tests, scripts)"
	@MYPY_CACHE_DIR="$${BLACKHOLE_CACHE:-$$HOME/.cache/blackhole-lab}/mypy" $(VENV)/bin/mypy --no-error-summary && echo "lint: typed (mypy: all of harness/, every function annotated)"

# The host part: the tests that bring labs up on this host on TEST_WORKERS pytest workers side by
# side (tests that share a lab or a run stay in one: tests/conftest.py), the groups that took
# longest handed out first (tests/longest_first.py; the labs mostly wait on kernel timers: on this
# 2-core machine, 2026-12-05, three workers in xdist's own order took 770.6 s with the CPU 68 % busy
# on average, four longest first 638.6 s: benchmarks/records/side-by-side-20261205-test-workers;
# five, 2026-12-06, 640 s with the CPU 95 % busy), and beside them at the lowest CPU priority
# (scripts/beside.sh) the tests that bring no lab up (tests/unit, tests/cli), which took 215 of the
# workers' 2490 group-seconds (host part 643 s -> 604 s). Those that time something real are in
# tests/clock and run with the labs (at nice 19 libpq's two 2 s timeouts took 5.38 s). Then the
# guest part alone, its guests with TEST_GUEST_CPUS virtual CPUs (two where the host has them): on
# this machine one vCPU no longer kept up with a lab's execs (an `lbctl list` in the director timed
# out after 60 s; the kube-proxy lab took 513 s to come up, 124-131 s before). Nothing runs beside
# the guest part: with the unit and CLI tests beside it at nice 19, 2026-12-06, its director-failover
# run took 186 s instead of 121 s; with the host part beside it, its Docker engine did not answer
# for 60 s and its kernel's timers ran late.
TEST_WORKERS ?= 4
export TEST_WORKERS
TEST_GUEST_CPUS ?= $(shell [ "$$(nproc)" -ge 2 ] && echo 2 || echo 1)
export TEST_GUEST_CPUS
test: lint setup guest-tools test-host test-guest

test-host: setup
	@scripts/ensure-chromium.sh
	@scripts/beside.sh $(PY) -m pytest -q -n 2 tests/unit tests/cli \
	  -- $(PY) -m pytest -n "$$TEST_WORKERS" --dist loadgroup -m "not guest" tests --ignore=tests/unit --ignore=tests/cli

test-guest: setup guest-tools
	@GUEST_CPUS="$$TEST_GUEST_CPUS" $(PY) -m pytest -m guest tests/guest

# make test-unit, then make test, timed from this checkout; benchmarks/test-time.jsonl.
bench-test: lint setup guest-tools
	@$(PY) -m harness.bench.test_time

test-slow: setup guest-tools
	@$(PY) -m pytest -m slow tests

# The guest-kernel suite: IPVS semantics, netem, refused knobs, the lab's director tests, kube-proxy's IPVS mode, in one
# guest booting KERNEL (default 6.12).
test-kernel: KERNEL := $(if $(filter-out host,$(KERNEL)),$(KERNEL),6.12)
test-kernel: export BLACKHOLE_TEST_KERNEL = $(KERNEL)
test-kernel: setup guest-tools
	@$(PY) -m pytest -m "guest or kernel" tests/guest

# The kube-proxy control plane's programs (etcd, kube-apiserver, kube-proxy), built from the Go
# module proxy once per machine; `make images` builds them too.
kube:
	@scripts/ensure-kube.sh >/dev/null

# A single-node Kubernetes cluster in a guest kernel (never on this host), kept until cluster-down.
cluster-up: setup guest-tools
	@$(PY) -m harness cluster-up

cluster-down: venv
	@$(PY) -m harness cluster-down

cluster-status: venv
	@$(PY) -m harness cluster-status

cluster-check: venv
	@$(PY) -m harness cluster-check "$${scenario:-lvs-switchover}"

bench-cluster-scale: setup
	@$(PY) -m harness.bench.cluster_scale

# A node command through the node agent (LAB=kubernetes by a kubeconfig): a kubectl exec each, and the exec sessions.
bench-node-agent: setup
	@$(PY) -m harness.bench.node_agent

test-cluster: setup guest-tools
	@$(PY) -m pytest -m cluster tests/cluster

compare-control-planes: setup guest-tools
	@$(PY) -m harness compare-control-planes

kernel-matrix: plan-check setup guest-tools
	@$(PY) -m harness kernel-matrix "$$scenario"

soak-interrupt: setup
	@$(PY) -m harness.soak "$${RUNS:-20}" $${SEED:+"$$SEED"}

bench-guest: setup guest-tools
	@set -f; $(PY) -m harness.bench.guest $$KERNELS

# `sysctl -a` of each guest kernel, kept in tests/sysctl_dumps/ for the sysctl import's unit test.
sysctl-dumps: setup guest-tools
	@set -f; $(PY) -m tests.sysctl_dumps.capture $${KERNELS:-5.10 6.1 6.12 7.3}

run: plan-check setup
	@$(PY) -m harness run "$$scenario"

plan: check venv
	@$(PY) -m harness plan $${scenario:+"$$scenario"}

# An incident's folder (examples/incident-0312) replayed: the operator's cell and the cures in one
# failover behind keepalived, in a guest booting the Debian series nearest the dump's kernel.
replay: check venv setup guest-tools
	@$(PY) -m harness replay "$$FROM"

scenarios: venv
	@$(PY) -m harness scenarios

report: venv
	@$(PY) -m harness report $${RUN:+"$$RUN"}

screenshots: venv
	@scripts/ensure-chromium.sh
	@$(PY) -m harness screenshots "$$RUN"

baseline: plan-check setup
	@$(PY) -m harness baseline "$$scenario" $${BASELINE:+--baseline "$$BASELINE"}

check-baseline: plan-check setup
	@$(PY) -m harness check-baseline "$$scenario" $${BASELINE:+--baseline "$$BASELINE"}

bench-up: setup
	@$(PY) -m harness.bench.up

bench-matrix: setup
	@$(PY) -m harness.bench.matrix

bench-scale: setup
	@$(PY) -m harness.bench.scale

bench-namespaces: setup
	@$(PY) -m harness.bench.namespaces

bench-connect-probe: setup
	@$(PY) -m harness.bench.connect_probe

bench-db-images: setup
	@$(PY) -m harness.bench.database_images

bench-explain: venv
	@$(PY) -m harness.bench.explain

bench-kube: setup
	@$(PY) -m harness.bench.kube_build

workshop: venv
	@$(PY) -m harness workshop

workshop-docs: venv
	@$(PY) -m harness workshop docs

workshop-check: setup guest-tools
	@set -f; $(PY) -m harness workshop check $$EXERCISES

hand-in: venv
	@$(PY) -m harness hand-in

collect: venv
	@$(PY) -m harness collect

exercise: setup
	@test -n "$$N" || { echo "usage: make exercise N=<number> [PAUSE=1] [PREDICT=\"cell=s ...\"]  (make workshop lists them)" >&2; exit 2; }
	@$(PY) -m harness exercise "$$N"

compare: venv
	@set -f; $(PY) -m harness compare $$RUNS

# make explain TCP_RETRIES2=5 CLIENT=jdbc socketTimeout=3000 works as well as K="..." (the check has
# refused whatever explain does not take): the harness reads the names make was given
# (BLACKHOLE_GIVEN) and their values from its environment, and K's words split as a shell would
# split them, without a shell.
explain: check venv
	@$(PY) -m harness explain --from-make
