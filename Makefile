# The two commands a newcomer needs (each installs what is missing first):
#   make quickstart   set up, build, run the quickstart pipeline
#   make test         set up, run the whole test suite
# `make setup` is idempotent: it creates .venv and installs torch==2.11.0
# there only when missing (see scripts/setup.sh and docs/setup.md).

CARGO ?= cargo

.PHONY: all setup build test quickstart lint

all: build

setup:
	@scripts/setup.sh

build: setup
	$(CARGO) build --release --bin triad

test: setup
	$(CARGO) test --workspace

quickstart: build
	scripts/quickstart.sh configs/quickstart.toml

lint: setup
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
