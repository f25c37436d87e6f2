#!/usr/bin/env bash
# The kiosk login session (packaging/loyalty-counter-kiosk-session) run for real: cage
# runs the session's restart loop, which runs the app (the demo, in a scratch home).
# Checks (a) that the app's window is the only one and fills the screen, (b) that the
# app killed with SIGKILL is running again within 5 seconds and shows its window again,
# (c) that ending the loop ends the whole session, and (d) that a crash loop backs off.
# About 25 s; it stops by itself: every wait has a time-out, and whatever it started is
# ended on the way out. The session's output and the screenshots: target/kiosk-session-test/
# (headless/, x11/).
#
# The session runs twice, (a) to (c) each time, from what cage tells its clients
# (WAYLAND_DEBUG=server: the output's mode, the windows made, their sizes):
#  - on cage's headless backend (WLR_BACKENDS=headless): cage drawing into nothing, with
#    no input device, as on a tablet without a seat, and as the issue asks;
#  - on its X11 backend, drawing into a window of Xvfb, for the screenshots: on the
#    headless backend cage hands the app's buffer straight to the output once the window
#    covers it (direct scan-out), and a screenshot then shows the last frame cage
#    composed itself, not the screen. Xvfb's pixels are the screen's.
# cage 0.1.4 refuses to run as root: as root, the session runs as `nobody`.
#
#   scripts/kiosk-session-test.sh [APP]    (default: target/debug/loyalty-counter)
set -euo pipefail
cd "$(dirname "$0")/.."

app=$(realpath "${1:-target/debug/loyalty-counter}")
[ -x "$app" ] || { echo "no $app: run \`make build\` first" >&2; exit 1; }
session=$PWD/packaging/loyalty-counter-kiosk-session
out=$PWD/target/kiosk-session-test
rm -rf "$out"
# Each pass its own home (the app's data from scratch) and runtime directory.
for pass in headless x11; do
  mkdir -p "$out/$pass/home"
  mkdir -m 0700 "$out/$pass/run"
done
# The pass under way, named in front of its checks.
pass=
failures=0
fail() { echo "FAIL: ${pass:+$pass: }$*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: ${pass:+$pass: }$*"; }
now_ms() { date +%s%3N; }
begun=$(now_ms)

# What the shop sets in /etc/default/loyalty-counter-kiosk, here for the test.
printf 'LOYALTY_COUNTER_KIOSK_ARGS="--demo --kiosk-idle 30"\n' >"$out/defaults"
as_user=()
if [ "$(id -u)" = 0 ]; then
  as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  chown -R nobody:nogroup "$out"
fi

# Every process this test starts is in one of these sessions (setsid): each pass's kiosk
# session, Xvfb's, the crash loop's. On the way out, whatever is left of them is killed.
# (Zombies are dead already: a container's first process may never reap them.)
sessions=()
alive_in() { ps -s "$1" -o pid=,stat= 2>/dev/null | awk '$2 !~ /^Z/ { print $1 }' || true; }
leftovers() {
  local sid
  for sid in "${sessions[@]}"; do
    alive_in "$sid"
  done
}
kill_all() {
  local pids
  pids=$(leftovers)
  # shellcheck disable=SC2086 # one argument per process
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
}
trap kill_all EXIT

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local deadline=$(($(now_ms) + $1 * 1000))
  shift
  until "$@"; do
    [ "$(now_ms)" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# The session's environment as a display manager would set it up, minus the display
# (the arguments: the backend and the display): a fresh home and runtime directory (the
# pass's), a D-Bus session (dbus-run-session), the app's data in the scratch home.
# WAYLAND_DEBUG=server makes cage log every request of its clients and every event it
# sends: the windows made and their sizes, from the compositor's side.
# WEBKIT_DISABLE_COMPOSITING_MODE: no GPU here, as in the e2e tests.
env_of_session() {
  local dir=$out/$1
  shift
  env_of_session=(env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME="$dir/home" XDG_RUNTIME_DIR="$dir/run"
    XDG_DATA_HOME="$dir/home/data" XDG_CONFIG_HOME="$dir/home/config" XDG_CACHE_HOME="$dir/home/cache"
    WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 WAYLAND_DEBUG=server
    GDK_BACKEND=wayland NO_AT_BRIDGE=1 WEBKIT_DISABLE_COMPOSITING_MODE=1
    LOYALTY_COUNTER_BIN="$app" LOYALTY_COUNTER_KIOSK_DEFAULTS="$out/defaults" "$@")
}

# A session without its app ends at once, with no compositor started.
env_of_session headless WLR_BACKENDS=headless
if "${env_of_session[@]}" LOYALTY_COUNTER_BIN="$out/none" timeout 10 "$session" >"$out/no-app.log" 2>&1; then
  fail "the session started without an app"
elif grep -q "no executable $out/none" "$out/no-app.log"; then
  ok "without the app the session ends at once and says why"
else
  fail "the session without an app: $(cat "$out/no-app.log")"
fi

# The pass's session: its directory, its output, its session id, cage, cage's one
# client (the loop), the output's mode, and (x11) cage's window in Xvfb.
dir=
log=
top=
cage=
loop=
mode=
screen=
find_cage() {
  cage=$(pgrep -s "$top" -x cage | head -n1)
  [ -n "$cage" ] && loop=$(pgrep -P "$cage" -f -- "$session" | head -n1) && [ -n "$loop" ]
}
# The app: the loop's child running the binary (not the `sleep` between two runs).
app_pid() { pgrep -P "$loop" -f -- "$app" | head -n1; }
shown() { [ "$(grep -c 'first screen on display' "$log")" -ge "$1" ]; }
toplevels() { grep -c 'xdg_surface@[0-9]*\.get_toplevel(' "$log" || true; }
made() { [ "$(toplevels)" -ge "$1" ]; }

# The output, as cage tells its clients (wl_output.mode; one mode, the current one), and
# its maker and model (wl_output.geometry).
output_mode() {
  sed -n 's/.* -> wl_output@[0-9]*\.mode([0-9]*, \([0-9]*\), \([0-9]*\), [0-9]*)$/\1x\2/p' "$log" | head -n1
}
output_maker() {
  sed -n 's/.* -> wl_output@[0-9]*\.geometry([-0-9]*, [-0-9]*, [0-9]*, [0-9]*, [0-9]*, \("[^"]*", "[^"]*"\), .*/\1/p' "$log" | head -n1
}

# The $1-th window made, as cage saw it: the last size cage configured it to
# (xdg_toplevel.configure), the size of the last buffer the app committed to its surface
# (wl_shm_pool.create_buffer, then wl_surface.attach and .commit), and the geometry the
# app last gave it (xdg_surface.set_window_geometry); "-" for what the log lacks.
window_facts() {
  # A line starts with its time in brackets, padded with spaces to a width ("[ 541255.1]").
  awk -v nth="$1" '
    function id(s) { sub(/^new id /, "", s); return s }
    /^\[ *[0-9.]*\] +(-> )?[a-z_0-9]*@[0-9]*\.[a-z_]*\(/ {
      call = $0
      sub(/^\[ *[0-9.]*\] +/, "", call)
      event = sub(/^-> /, "", call)
      p = index(call, "(")
      object = substr(call, 1, index(call, ".") - 1)
      method = substr(call, index(call, ".") + 1, p - index(call, ".") - 1)
      args = substr(call, p + 1)
      sub(/\)$/, "", args)
      split(args, a, /, /)
      if (method == "get_xdg_surface") surface_of[id(a[1])] = a[2]
      else if (method == "create_buffer") size_of[id(a[1])] = a[3] "x" a[4]
      else if (method == "get_toplevel") {
        made++
        on = made == nth
        if (on) { xdg = object; surface = surface_of[object]; toplevel = id(a[1]) }
      } else if (on && event && object == toplevel && method == "configure" && a[1] != 0)
        configured = a[1] "x" a[2]
      else if (on && object == surface && method == "attach") attached = size_of[a[1]]
      else if (on && object == surface && method == "commit" && attached != "") committed = attached
      else if (on && object == xdg && method == "set_window_geometry")
        geometry = a[1] "," a[2] " " a[3] "x" a[4]
    }
    END {
      print (configured == "" ? "-" : configured)
      print (committed == "" ? "-" : committed)
      print (geometry == "" ? "-" : geometry)
    }' "$log"
}

# The app's window, as the compositor saw it: windows made so far, one per start; cage
# sized it to the output, the app drew it at that size and gave it that geometry.
check_window() {
  local name=$1 starts=$2 made configured committed geometry
  made=$(toplevels)
  [ "$made" = "$starts" ] && ok "$name: $made window made in all, one per start of the app: the only window" ||
    fail "$name: $made windows made for $starts starts of the app"
  { read -r configured; read -r committed; read -r geometry; } < <(window_facts "$starts")
  [ "$configured" = "$mode" ] && [ "$committed" = "$mode" ] && [ "$geometry" = "0,0 $mode" ] &&
    ok "$name: cage sized the window $configured, the app drew it $committed (its last buffer), at $geometry: the whole output" ||
    fail "$name: cage sized the window $configured, the app drew it $committed (its last buffer), at $geometry; the output ${mode:-unknown}"
}

# cage's output, in Xvfb: the one visible window that is not the root.
screen_window() {
  local root id
  root=$(xdotool search --maxdepth 0 --name '.*')
  for id in $(xdotool search --maxdepth 1 --onlyvisible --name '.*'); do
    [ "$id" = "$root" ] || { echo "$id"; return; }
  done
}

# Takes a screenshot of cage's window in Xvfb once the screen has settled: two shots half
# a second apart that differ in at most 200 pixels (a blinking caret); after 10 s of
# change (a live camera preview), the last one.
settled_shot() {
  local shot=$1 before=$dir/before.png tries=20 differ
  timeout 20 import -window "$screen" "$before" || return 1
  while [ "$tries" -gt 0 ]; do
    sleep 0.5
    timeout 20 import -window "$screen" "$shot" || return 1
    differ=$(compare -metric AE "$before" "$shot" null: 2>&1 || true)
    [ "${differ%%[.e ]*}" -le 200 ] 2>/dev/null && return 0
    cp "$shot" "$before"
    tries=$((tries - 1))
  done
  return 0
}

# Checks the screen: cage's window in Xvfb, at the output's size; no pixel of cage's own
# black background along its edges (what a window smaller than the output leaves); and a
# page drawn on it, not a window left blank (the most common colour under 80 %).
check_screen() {
  local name=$1 shot=$dir/$1.png size black common
  if [ -z "$screen" ] || ! settled_shot "$shot"; then
    fail "$name: no screenshot of cage's window in Xvfb"
    return
  fi
  size=$(identify -format '%wx%h' "$shot")
  [ "$size" = "$mode" ] && ok "$name: the screen is ${size}, the output's mode" ||
    fail "$name: the screen is ${size}, the output's mode ${mode:-unknown}"
  # Everything but a one-pixel frame painted white, then the frame's pure black pixels counted.
  black=$(convert "$shot" -fill white -draw "rectangle 1,1 $((${size%x*} - 2)),$((${size#*x} - 2))" \
    -fill white +opaque black -format '%[fx:int(w*h*(1-mean)+0.5)]' info:)
  [ "$black" = 0 ] && ok "$name: the app's window covers the output to its edges (no background showing)" ||
    fail "$name: $black pixels of cage's background along the edges; see $shot"
  common=$(convert "$shot" -format %c histogram:info:- | sort -rn | awk -v all="$((${size%x*} * ${size#*x}))" \
    'NR == 1 { sub(":", "", $1); print int($1 * 100 / all) }')
  [ "$common" -lt 80 ] && ok "$name: a page is drawn (its most common colour covers $common % of the screen); $shot" ||
    fail "$name: the screen is mostly one colour ($common %): no page drawn; see $shot"
}

# One run of the session on cage's backend $1 (headless, or x11 into Xvfb's $DISPLAY):
# checks (a) to (c), with screenshots on x11. Returns early (its session killed) when the
# session or the app does not come up.
run_pass() {
  local backend=$1 started first second killed ended args vars differ
  pass=$backend
  dir=$out/$pass
  log=$dir/session.log
  screen=
  vars=(WLR_BACKENDS="$backend")
  [ "$backend" != x11 ] || vars+=(DISPLAY="$DISPLAY")
  env_of_session "$pass" "${vars[@]}"
  started=$(now_ms)
  setsid "${as_user[@]}" "${env_of_session[@]}" dbus-run-session -- "$session" >"$log" 2>&1 &
  top=$!
  sessions+=("$top")

  if wait_for 20 find_cage; then
    ok "cage runs the session's loop (cage $cage, loop $loop)"
  else
    fail "no cage with its loop; the session's output:"
    tail -n 20 "$log" >&2
    return 1
  fi

  # (a) The first start: the app's window, and nothing else, fills the output.
  if wait_for 60 shown 1; then
    ok "the app shows its first screen $(($(now_ms) - started)) ms after the session started"
  else
    fail "the app showed no screen in 60 s; the session's output:"
    grep -v 'wl_\|xdg_\|zwp_\|wp_\|zxdg' "$log" | tail -n 20 >&2
    return 1
  fi
  first=$(app_pid)
  [ -n "$first" ] || { fail "no app under the loop"; return 1; }
  mode=$(output_mode)
  args=$(tr '\0' ' ' <"/proc/$first/cmdline")
  [ "$args" = "$app --kiosk --demo --kiosk-idle 30 " ] && ok "the app runs as: $args(the settings' options after --kiosk)" ||
    fail "the app runs as: $args"
  [ -n "$mode" ] && ok "cage's output: $mode ($(output_maker))" || fail "cage announced no output mode"
  [ "$backend" != x11 ] || screen=$(screen_window || true)
  sleep 1   # the frame after the first screen
  check_window "first start" 1
  [ "$backend" != x11 ] || check_screen "first-start"

  # (b) The app killed (SIGKILL: no chance to tidy up) is running again within 5 s and
  # shows its window again.
  killed=$(now_ms)
  kill -KILL "$first"
  second=
  running_again() { second=$(app_pid) && [ -n "$second" ] && [ "$second" != "$first" ]; }
  if wait_for 5 running_again; then
    ok "killed with SIGKILL, the app is running again after $(($(now_ms) - killed)) ms (pid $first, then $second)"
  else
    fail "no new app within 5 s of the kill; the loop said: $(grep 'loyalty-counter-kiosk-session:' "$log" | tail -n1)"
  fi
  grep -q "loyalty-counter-kiosk-session: $app ended (status 137)" "$log" && ok "the loop saw it killed (status 137)" ||
    fail "the loop did not report the kill"
  if wait_for 60 made 2; then
    ok "the new app makes its window $(($(now_ms) - killed)) ms after the kill"
  else
    fail "the new app made no window within 60 s of the kill"
  fi
  if wait_for 60 shown 2; then
    ok "the new app shows its first screen $(($(now_ms) - killed)) ms after the kill"
    sleep 1
    check_window "after the kill" 2
    if [ "$backend" = x11 ]; then
      check_screen "after-the-kill"
      # The new app shows what the first showed, give or take the page's own layout: the
      # counter behind the PIN pad has been seen laid out 10 pixels taller from one start
      # to the next (16,120 pixels apart). At most a tenth of the screen differs.
      differ=$(compare -metric AE -fuzz 10% "$dir/first-start.png" "$dir/after-the-kill.png" "$dir/difference.png" 2>&1 || true)
      [ "${differ%%[.e ]*}" -le "$((${mode%x*} * ${mode#*x} / 10))" ] 2>/dev/null &&
        ok "after the kill the screen is the first start's again ($differ pixels differ)" ||
        fail "after the kill the screen differs from the first start's in $differ pixels; see $dir/difference.png"
    fi
  else
    fail "the new app showed no screen within 60 s of the kill"
  fi

  # (c) Ending the loop ends the session: the app, then cage (its one client gone). At the
  # session's end logind signals every process of it; the loop alone must be enough.
  ended=$(now_ms)
  kill -TERM "$loop"
  gone() { [ -z "$(alive_in "$top")" ]; }
  if wait_for 10 gone; then
    ok "SIGTERM to the loop ended the app, cage and the session in $(($(now_ms) - ended)) ms"
  else
    fail "10 s after SIGTERM to the loop, still running: $(ps -s "$top" -o pid=,comm= | tr '\n' ' ')"
  fi
}

# Ends what is left of the pass's session (after a pass that returned early).
end_pass() {
  local pids
  pids=$(alive_in "$top")
  # shellcheck disable=SC2086 # one argument per process
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  pass=
}

# The first pass: headless, as the issue asks.
run_pass headless || true
end_pass

# The second: cage in Xvfb, for the screenshots.
setsid "${as_user[@]}" Xvfb -displayfd 3 -nolisten tcp -screen 0 1280x800x24 3>"$out/display" 2>"$out/xvfb.log" &
xvfb=$!
sessions+=("$xvfb")
if wait_for 10 test -s "$out/display"; then
  DISPLAY=:$(cat "$out/display")
  export DISPLAY
  run_pass x11 || true
  end_pass
else
  fail "Xvfb did not start: $(cat "$out/xvfb.log")"
fi
kill -TERM "$xvfb" 2>/dev/null || true

# (d) A crash loop backs off: an app that ends at once is started again after half a
# second, four times, then every five seconds. The loop alone (the part of the session
# that runs inside cage), with a binary that exits at once.
printf '#!/bin/sh\nexit 3\n' >"$out/crashing"
chmod 0755 "$out/crashing"
LOYALTY_COUNTER_KIOSK_IN_CAGE=1 LOYALTY_COUNTER_BIN="$out/crashing" setsid "$session" 2>"$out/crash-loop.log" &
crash_loop=$!
sessions+=("$crash_loop")
sleep 8
kill -TERM "$crash_loop"
wait_for 5 eval '! kill -0 '"$crash_loop"' 2>/dev/null' || fail "the crash loop did not end on SIGTERM"
pauses=$(sed -n 's/.*ended (status 3) after [0-9]* s; starting it again in \([0-9.]*\) s$/\1/p' "$out/crash-loop.log" | tr '\n' ' ')
case "$pauses" in
  "0.5 0.5 0.5 0.5 5 5 "*|"0.5 0.5 0.5 0.5 5 ") ok "a crash loop backs off: pauses of $pauses(seconds)" ;;
  *) fail "a crash loop's pauses: ${pauses:-none}; see $out/crash-loop.log" ;;
esac

# Xvfb ends on SIGTERM; nothing else may be left.
wait_for 5 eval '[ -z "$(leftovers)" ]' || true
left=$(leftovers)
[ -z "$left" ] && ok "nothing left running" || fail "left running: $(ps -o pid=,comm= -p "$(paste -sd, <<<"$left")" | tr '\n' ' ')"
[ "$failures" = 0 ] && echo "kiosk session: $(($(now_ms) - begun)) ms, every check passed" || exit 1
