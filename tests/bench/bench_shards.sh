#!/bin/sh
# bench_shards: how long one delver takes to bring up 16 shards, and what
# each shard costs in memory. The fake Discord (tests/tools/fake_discord)
# recommends 16 shards for 32 guilds and spaces IDENTIFYs as Discord does
# (5 s per bucket); delver runs with no shard settings, so it takes the 16
# in one process. Timed from the start of the process to the 16th session
# ready, with max_concurrency 16 (every bucket at once) and 1 (15 waits of
# Discord's 5 s). Memory: the resident set of the process with 16 shards
# ready, less that of one with 1 shard ready, over 15 (plain ws:// on
# loopback: a TLS connection to Discord adds its own buffers). Prints
# figures; fails only when a bring-up does not finish.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

now_ms() {
	python3 -c 'import time; print(int(time.monotonic() * 1000))'
}

# run SHARDS MC: a fake recommending SHARDS, max_concurrency MC; delver
# started; sets MS (to all SHARDS ready) and RSS (kB, once they are).
run() {
	rm -rf "$WORK/state" "$WORK/port"
	fake_start --heartbeat 41250 --shards "$1" --guilds 32 --max-concurrency "$2"
	t0=$(now_ms)
	bot_start
	wait_live "$1" 300
	MS=$(($(now_ms) - t0))
	sleep 1 # the registration and the first heartbeats settle
	RSS=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$BOT_PID/status")
	bot_stop
	kill -TERM "$FAKE_PID"
	wait "$FAKE_PID" || fail "the fake Discord saw violations: $(grep -m 3 VIOLATION "$WORK/fake.log")"
	FAKE_PID=""
}

run 1 1
one=$RSS
run 16 16
many=$RSS
printf 'bench_shards: 16 shards up in %d ms with max_concurrency 16\n' "$MS"
run 16 1
printf 'bench_shards: 16 shards up in %d ms with max_concurrency 1\n' "$MS"
printf 'bench_shards: resident memory %d kB with 1 shard, %d kB with 16: %d kB per shard\n' \
	"$one" "$many" $(((many - one) / 15))
