#!/bin/sh
# /roll through the console: every example of NOTATION.md that must behave
# exactly so, the limits and the error sentences, under a fixed seed.
. tests/integration/lib.sh
transcript roll 7
