#!/bin/sh
# bench_shards: how long one delver takes to bring up 16 shards, and what
# each shard costs in memory. The fake Discord (tests/tools/fake_discord)
# recommends 16 shards for 32 guilds and spaces IDENTIFYs as Discord does
# (5 s per bucket); delver runs with no shard settings, so it takes the 16
# in one process. Timed from the start of the process to the 16th session
# ready, with max_concurrency 1 (15 waits of Discord's 5 s) and 16 (every
# bucket at once). Memory: the resident set of the process with 16 shards
# ready, less that of one with 1 shard ready, over 15 (plain ws:// on
# loopback: a TLS connection to Discord adds its own buffers). Prints
# figures; fails only when a bring-up does not finish.
set -u
BUILD=${1:-build/default}
WORK=$(mktemp -d /tmp/delver-bench-shards.XXXXXX)
FAKE_PID=""
BOT_PID=""
TOKEN="MTEwMDAwMDAwMDAwMDAwMDAwMQ.bench.$$"
export DELVER_BENCH_TOKEN="$TOKEN"
unset RUNTIME_DIRECTORY

stop() {
	[ -n "$BOT_PID" ] && kill "$BOT_PID" 2>/dev/null && wait "$BOT_PID" 2>/dev/null
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null && wait "$FAKE_PID" 2>/dev/null
	BOT_PID=""
	FAKE_PID=""
}
trap 'stop; rm -rf "$WORK"' EXIT

fail() {
	echo "bench_shards: $*"
	exit 1
}

now_ms() {
	python3 -c 'import time; print(int(time.monotonic() * 1000))'
}

live() {
	curl -s "http://127.0.0.1:$PORT/_control/sessions" | python3 -c "
import json, sys
print(len([s for s in json.load(sys.stdin) if s['live']]))"
}

# run SHARDS MC: a fake recommending SHARDS, max_concurrency MC; delver
# started; prints the ms to all SHARDS ready and the RSS in kB then.
run() {
	rm -rf "$WORK/state" "$WORK/port"
	"$BUILD/tools/fake_discord" --port-file "$WORK/port" --token "$TOKEN" --heartbeat 41250 \
		--shards "$1" --guilds 32 --max-concurrency "$2" > "$WORK/fake.log" 2>&1 &
	FAKE_PID=$!
	i=0
	while [ ! -s "$WORK/port" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "the fake Discord did not start"
		sleep 0.05
	done
	PORT=$(cat "$WORK/port")
	printf '[bot]\nstate_dir = %s/state\n[discord]\ntoken_source = env:DELVER_BENCH_TOKEN\nrest_url = http://127.0.0.1:%s/api/v10\n' \
		"$WORK" "$PORT" > "$WORK/delver.conf"
	t0=$(now_ms)
	"$BUILD/delver" --config "$WORK/delver.conf" < /dev/null > "$WORK/bot.log" 2>&1 &
	BOT_PID=$!
	until [ "$(live)" = "$1" ]; do
		[ $(($(now_ms) - t0)) -gt 300000 ] && fail "$1 shards not up in 300 s"
		kill -0 "$BOT_PID" 2>/dev/null || fail "delver exited: $(tail -n 3 "$WORK/bot.log")"
		sleep 0.05
	done
	t1=$(now_ms)
	sleep 1 # the registration and the first heartbeats settle
	rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$BOT_PID/status")
	stop
	echo "$((t1 - t0)) $rss"
}

set -- $(run 1 1)
one_rss=$2
set -- $(run 16 16)
printf 'bench_shards: 16 shards up in %d ms with max_concurrency 16\n' "$1"
many_rss=$2
set -- $(run 16 1)
printf 'bench_shards: 16 shards up in %d ms with max_concurrency 1\n' "$1"
printf 'bench_shards: resident memory %d kB with 1 shard, %d kB with 16: %d kB per shard\n' \
	"$one_rss" "$many_rss" $(((many_rss - one_rss) / 15))
