#!/bin/sh
# Runs scripts/fairlearn_compare.py (see its header) with Debian's python3 and Fairlearn 0.9.0's
# source in FAIRLEARN_SRC (default: fairlearn-src beside this repository), on one core.
#
#   scripts/fairlearn_compare.sh RUN FP OUT [--splits 0,1,...] [--methods a,b,...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${FAIRLEARN_SRC:-$(dirname "$here")/../fairlearn-src}
if [ ! -f "$src/fairlearn/__init__.py" ]; then
	echo "fairlearn_compare.sh: no Fairlearn source in $src: git clone --depth 1 --branch v0.9.0 https://github.com/fairlearn/fairlearn $src, or set FAIRLEARN_SRC" >&2
	exit 1
fi
version=$(PYTHONPATH=$src /usr/bin/python3 -c 'import fairlearn; print(fairlearn.__version__)')
if [ "$version" != 0.9.0 ]; then
	echo "fairlearn_compare.sh: $src holds Fairlearn $version, not 0.9.0" >&2
	exit 1
fi
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=$src exec /usr/bin/python3 "$here/fairlearn_compare.py" "$@"
