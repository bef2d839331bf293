# Sourced by the .ci scripts: the project's venv first on PATH, and the
# variables the Rust build needs to find libtorch in the venv's torch wheel.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export VENV=${VENV:-$root/.venv}
export VIRTUAL_ENV=$VENV
export PATH="$VENV/bin:$PATH"
export LIBTORCH_USE_PYTORCH=1
export CARGO_TERM_COLOR=never
