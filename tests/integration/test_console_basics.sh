#!/bin/sh
# The console: GM seat, help, bad input (long lines, invalid UTF-8, unknown
# commands), /as switching players, /channel switching channels, both
# saying the current one with no name, and quit ending the input.
. tests/integration/lib.sh
transcript basics 1
