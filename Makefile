# The two commands a newcomer needs (each installs what is missing first):
#   make quickstart   set up, build, run the quickstart pipeline
#   make test         set up, run the whole test suite (Rust, then Python)
#   make python       build the Python package `triad` into .venv
#   make python-release  the same, optimised (for timings)
# `make setup` is idempotent: it creates .venv and installs torch==2.11.0
# there only when missing (see scripts/setup.sh and docs/setup.md).

CARGO ?= cargo

.PHONY: all setup build test quickstart lint python python-release python-test

all: build

setup:
	@scripts/setup.sh

build: setup
	$(CARGO) build --release --bin triad

# After cargo's tests: the Python package (python/, docs/python.md), built
# in the dev profile into .venv and tested with pytest.
test: setup
	$(CARGO) test --workspace
	$(MAKE) python-test

python: setup
	VIRTUAL_ENV=$(CURDIR)/.venv .venv/bin/maturin develop --quiet -m python/Cargo.toml

# The optimised build, for timing (scripts/bench-python.py): the dev
# profile's extension is several times slower.
python-release: setup
	VIRTUAL_ENV=$(CURDIR)/.venv .venv/bin/maturin develop --release --quiet -m python/Cargo.toml

python-test: python
	.venv/bin/python -m pytest python/tests -q

quickstart: build
	scripts/quickstart.sh configs/quickstart.toml

lint: setup
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
