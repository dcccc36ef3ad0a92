#!/usr/bin/env bash
# cli_server.sh: `watch --http` under clients that misbehave. Slow clients
# that trickle their headers (64 of them, all on loopback as the scrape)
# never keep a normal scrape of /metrics from being served, and are closed
# once idle; a method other than GET or HEAD is 405 with an Allow header;
# paths are matched as sent, so "/%00" is 404, not the page.
#
# Every wait is bounded; all traffic stays on 127.0.0.1. Environment (set
# by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

LOG=$SAMPLES/phases-strict-hc.eventlog
SLOW=64

# A watch that has read the whole log and keeps serving for 30 s; SIGTERM
# ends it.
"$BIN" watch "$LOG" --http 127.0.0.1:0 --linger 30 --interval 5 \
  >/dev/null 2>"$TMP/watch.err" &
wpid=$!
for i in $(seq 100); do grep -q serving "$TMP/watch.err" && break; sleep 0.1; done
port=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$TMP/watch.err")
URL=http://127.0.0.1:$port
check "watch --http started" test -n "$port"

# scrape PATH [CURL-OPTIONS...]: the status code, headers and body of one
# request, within 3 s.
scrape() {
  local path=$1
  shift
  curl -s --max-time 3 -D "$TMP/headers" -o "$TMP/body" -w '%{http_code}' \
    "$@" "$URL$path" 2>/dev/null
}

# ---- a normal scrape, then the same under 64 slow clients -----------------

code=$(scrape /metrics)
check "/metrics before the slow clients ($code)" same "$code" 200
cp "$TMP/body" "$TMP/metrics.alone"

# $SLOW connections that send one header byte, then nothing for 6.5 s
# (one byte every 5 s would do as little); the script prints how many the
# server had closed by then.
python3 - "$port" "$SLOW" >"$TMP/slow.out" 2>&1 <<'EOF' &
import socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
socks = []
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port), timeout=2)
    s.sendall(b"G")
    socks.append(s)
print("open", len(socks), flush=True)
time.sleep(6.5)
closed = 0
for s in socks:
    s.setblocking(False)
    try:
        closed += s.recv(1) == b""
    except BlockingIOError:
        pass
    except OSError:
        closed += 1
print("closed", closed, flush=True)
EOF
spid=$!
for i in $(seq 50); do grep -q open "$TMP/slow.out" && break; sleep 0.1; done
check "$SLOW slow clients connected ($(head -c 200 "$TMP/slow.out"))" \
  grep -q "open $SLOW" "$TMP/slow.out"
sleep 1
for k in 1 2 3; do
  code=$(scrape /metrics)
  check "/metrics under $SLOW slow clients, try $k: answered ($code)" \
    same "$code" 200
  check "/metrics under $SLOW slow clients, try $k: the whole document" \
    cmp -s "$TMP/body" "$TMP/metrics.alone"
done
wait $spid
nclosed=$(sed -n 's/^closed //p' "$TMP/slow.out")
check "the slow clients are closed once idle ($(cat "$TMP/slow.out"))" \
  same "${nclosed:-0}" "$SLOW"

# ---- methods and paths ---------------------------------------------------

code=$(scrape /metrics -X POST)
check "POST is 405 ($code)" same "$code" 405
check "405 says what is allowed" \
  grep -Eiq '^Allow: GET, HEAD.$' "$TMP/headers"
code=$(scrape / -X DELETE)
check "DELETE / is 405 ($code)" same "$code" 405
check "405 on / says what is allowed" grep -Eiq '^Allow: GET, HEAD' "$TMP/headers"
code=$(scrape /metrics -I)
check "HEAD /metrics is 200 ($code)" same "$code" 200
check "GET has no Allow header" bash -c "! grep -iq '^Allow:' '$TMP/headers'"

code=$(scrape /%00)
check "/%00 is 404 ($code)" same "$code" 404
check "/%00 is not the page" bash -c "! grep -q '<html' '$TMP/body'"
code=$(scrape /metrics%00.html)
check "/metrics%00.html is 404 ($code)" same "$code" 404
code=$(scrape '/?x=%00')
check "/ with a query is the page ($code)" same "$code" 200
check "/ with a query: the page" grep -q '<html' "$TMP/body"

kill -TERM $wpid
wait $wpid
rc=$?
expect_rc "watch --http ends on SIGTERM" 0

finish
