#!/bin/sh
# The dungeon procedure: ten turns of an exploration delve with torches
# (lit, warned about, burned out, relit), a rest, wandering checks of
# several procedures, surprise, a GM-only refusal and bad input.
. tests/integration/lib.sh
transcript procedure 4
