#!/bin/sh
# The GM's tables on the console: the five example tables of delver(7),
# TABLES, typed line by line between /table set NAME and /table end and
# rolled by the procedures (Tension, the hazard die on two tables, the
# wandering check, a custom hazard die naming a table); commands in the
# middle of a table, a cancel, a table replaced, a bad table, the one-line
# form.
. tests/integration/lib.sh
transcript tables 221
