#!/bin/sh
# /tension on the console: a GM and two players raise Tension by combat,
# roll in the open and behind the screen (hidden mode), strike a defeated
# encounter and go back to town; refusals and bad input along the way.
. tests/integration/lib.sh
transcript tension 85
