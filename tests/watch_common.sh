# Sourced by the tests/cli_watch*.sh scripts after cli_common.sh: the
# feeder, the sample log, and the helpers that wait for, compare and stop
# a watch.
FEEDER=${LIVE_FEEDER:?LIVE_FEEDER must name tests/live_feeder}
LOG=$SAMPLES/leak-hc.eventlog
SIZE=$(stat -c %s "$LOG")
REPORT_EXT="svg pdf hp csv folded"

# wait_test OP FILE: up to 10 s for [ OP FILE ] to hold.
wait_test() {
  local i
  for i in $(seq 100); do
    [ "$1" "$2" ] && return 0
    sleep 0.1
  done
  return 1
}
# wait_for FILE: FILE exists and is not empty.
wait_for() { wait_test -s "$1"; }
# wait_sock SOCK: the Unix socket SOCK exists (a socket has no size:
# wait_for would wait its whole 10 s for one).
wait_sock() { wait_test -S "$1"; }

# same_file A B: equal bytes; a PDF's CreationDate (the clock) aside, and
# the number cairo gives an SVG's surface, which counts the surfaces the
# process made before (watch rewrites its chart, report draws it once;
# the page embeds the chart's SVG).
same_file() {
  if [[ "$1" == *.svg || "$1" == *.html ]]; then
    cmp -s <(sed 's/surface[0-9]*/surface/g' "$1") \
      <(sed 's/surface[0-9]*/surface/g' "$2")
  else
    same_bytes "$1" "$2"
  fi
}

# same_as_report WHAT DIR NAME INPUT: DIR/NAME.* equal `report INPUT`'s.
same_as_report() {
  local d=$TMP/batch.$RANDOM ext
  "$BIN" report "$4" -d "$d" >/dev/null 2>&1
  for ext in $REPORT_EXT; do
    checks=$((checks + 1))
    same_file "$2/$3.$ext" "$d/$(basename "${4%.*}").$ext" ||
      fail "$1: $3.$ext differs from heapscope report's"
  done
}

# json_field FILE N KEY: KEY of the N-th JSON line (python3 parses it).
json_field() {
  python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[int(sys.argv[2])])[sys.argv[3]])' "$@"
}

# term_watch SECS FEEDER_PID OUT ARGS...: watch ARGS in the background,
# stdout into OUT, SIGTERM after SECS; sets rc, then stops the feeder.
term_watch() {
  local secs=$1 fpid=$2 out=$3 wpid
  shift 3
  timeout 60 "$BIN" watch "$@" >"$out" 2>"$TMP/err" &
  wpid=$!
  sleep "$secs"
  kill -TERM $wpid
  wait $wpid
  rc=$?
  kill "$fpid" 2>/dev/null
  wait
}
