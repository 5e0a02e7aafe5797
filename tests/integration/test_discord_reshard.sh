#!/bin/sh
# Resharding on SQLite loses no channel: 16 channels in 8 guilds, each
# advanced 3 turns per phase, through shard counts 1 -> 2 -> 4 -> 2 (one
# process per shard, all stopped before the count changes, as delver(8)
# says) and then one process running every shard Discord recommends.
# Each process keeps its state in its own part of one state root (shard-N;
# the whole root when it runs every shard) and takes at start what is newer
# in the others', so every guild that moved finds its channels' turns: at
# the end each channel shows Turn 15, every advance acknowledged once.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

. tests/integration/reshard_lib.sh
finish
