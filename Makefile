# blackhole-lab. `make help` lists the targets.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export LB_DATAPATH ?= auto
export TCP_RETRIES2 LB_IDLE_TIMEOUT LAB_FRONT_PREFIX LAB_BACK_PREFIX

.PHONY: help setup host images venv up down clean status test test-unit bench-up

help:
	@echo "make up            bring the lab up (installs/builds what is missing)"
	@echo "make down          take this lab down"
	@echo "make clean         remove everything the lab created, found by label (also after a crash)"
	@echo "make test          unit tests and real-lab tests"
	@echo "make bench-up      time cold build, warm up --wait and down; stored in results/bench/"
	@echo "knobs: LB_DATAPATH=auto|ipvs|nftables TCP_RETRIES2=N"

setup: host images venv

host:
	@scripts/ensure-host.sh

images: host venv
	@$(PY) -m harness build

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 needed"' \
	  || { echo "error: $(PYTHON) is older than 3.11; set PYTHON=python3.11" >&2; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

up: setup
	@$(PY) -m harness up

down: venv
	@$(PY) -m harness down

status: venv
	@$(PY) -m harness status

clean: venv host
	@$(PY) -m harness clean

test-unit: venv
	@$(PY) -m pytest -q tests/unit

test: setup
	@$(PY) -m pytest tests

bench-up: setup
	@$(PY) -m harness.bench.up
