# The setup scripts/bench-matrix, bench-matrix-flood and bench-encryption
# share, sourced after `cd` to the checkout with $hark set: the script run
# again in a private D-Bus session; a homeserver of its own (scripts/synapse)
# with users alice and bob (password bench-password) at $url; a gnome-keyring
# of its own; HOME and XDG_DATA_HOME in $work; Hark signed in as alice.
# Everything is stopped, and $work removed, on exit.
if [ -z "${HARK_BENCH_MATRIX_BUS:-}" ]; then
  HARK_BENCH_MATRIX_BUS=1 exec dbus-run-session -- "$0" "$@" 2> >(grep -v "^dbus-daemon" >&2)
fi
scripts/synapse install
work=$(mktemp -d)
keyring=
cleanup() {
  scripts/synapse stop "$work/hs" >/dev/null 2>&1 || true
  [ -n "$keyring" ] && kill "$keyring" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/hs" "$work/home" "$work/data" "$work/runtime"
chmod 700 "$work/runtime"
url=$(scripts/synapse start "$work/hs" | tail -1)
scripts/synapse register "$work/hs" alice bench-password >/dev/null
scripts/synapse register "$work/hs" bob bench-password >/dev/null
export HOME=$work/home XDG_DATA_HOME=$work/data
printf bench | env G_DEBUG= XDG_RUNTIME_DIR="$work/runtime" DISPLAY= \
  gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
keyring=$!
for _ in $(seq 100); do
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets 2>/dev/null | grep -q true && break
  sleep 0.1
done
printf 'bench-password' | "$hark" account login --homeserver "$url" --user alice >/dev/null
