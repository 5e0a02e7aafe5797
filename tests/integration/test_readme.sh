#!/bin/sh
# README.md's console session, its GM tour (twice on one state: a second
# run works too), the restart example and the --check-config examples,
# each replayed and compared with what README.md shows
# (tests/integration/readme.py). UPDATE=1 rewrites the tour's transcripts.
. tests/integration/lib.sh
exec python3 tests/integration/readme.py "$DELVER"
