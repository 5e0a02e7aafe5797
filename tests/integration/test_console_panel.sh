#!/bin/sh
# /panel on the console: the channel's state in at most four lines, shown
# when asked (nothing is edited there), with each button as the command it
# runs; the same lines for the GM and a player while Tension is open;
# behind the GM's screen the player's panel says only that Tension is
# hidden and the GM's shows the bar; a Fungeon party adds its line.
. tests/integration/lib.sh
transcript panel 30
