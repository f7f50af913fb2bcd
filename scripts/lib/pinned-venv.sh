# Shared by the installers of Python environments Hark runs helpers in
# (install-transcriber, install-crypto-engine, the tests' nio peer): every
# package at the exact version and file hash of a requirements file, binary
# wheels only (pip install --require-hashes), progress lines on standard error.
# Sourced, after setting:
#   name   the prefix of every line ("install-transcriber")
#   here   the folder of the sourcing script (its resources are beside it, or in ../Resources)
#   dir    the environment's folder
# shellcheck shell=bash

die() { echo "$name: $*" >&2; exit 1; }
say() { echo "$name: $*" >&2; }

# Installed beside the app (PREFIX/share/hark), or in a checkout (scripts/ and Resources/).
resource() {
  local candidate
  for candidate in "$here/$1" "$here/../Resources/$1"; do
    [ -f "$candidate" ] && { echo "$candidate"; return; }
  done
  die "$1 is missing beside $0"
}

# pip: exact pins and hashes only, binary wheels, no cache (what it would keep
# of the download would take as much disk again); pip's messages to standard
# error, with progress a program can read when that is not a terminal.
progress=(--progress-bar raw)
[ -t 2 ] && progress=()
pip_install() {
  PYTHONUNBUFFERED=1 "$dir/bin/python" -m pip install --disable-pip-version-check --no-input --no-deps \
    --no-cache-dir --only-binary=:all: --require-hashes "${progress[@]}" "$@" >&2
}
files_in() { grep -c '^[A-Za-z0-9].*==' "$1"; }
# A pip that reports its download progress in lines (Debian's 23.0 cannot):
# in a new environment, and in one an earlier Hark made before this was so.
update_pip() {
  local progress_wanted=("${progress[@]}")
  progress=()
  pip_install -r /dev/stdin <<'PIN' || die "pip could not be updated (no network, or no disk space?); run it again to retry"
pip==26.3 \
    --hash=sha256:f3b60b20ffaadd4415ed7957212a38ac63fa4c5fa375bd0f4a797777940fad13
PIN
  progress=("${progress_wanted[@]}")
}

# A new virtual environment in $dir made by $1 (Debian's python3: the pins are
# for its CPython 3.11), with its venv module installed when it is missing.
# Only a folder that is empty or a virtual environment is removed first.
new_environment() {
  local python=$1
  [ -x "$python" ] || python=$(command -v python3 || true)
  [ -n "$python" ] || die "python3 is not installed (Debian: apt install python3 python3-venv)"
  if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    if [ -x "$here/install-deps" ]; then
      "$here/install-deps" >&2 || die "could not install python3-venv"
    fi
    "$python" -c 'import venv, ensurepip' 2>/dev/null ||
      die "Python's venv module is missing (Debian: apt install python3-venv)"
  fi
  if [ -e "$dir" ]; then
    if [ -f "$dir/pyvenv.cfg" ] || [ -z "$(ls -A "$dir")" ]; then
      rm -rf "$dir"
    else
      die "$dir exists and is not a virtual environment: not touching it"
    fi
  fi
  mkdir -p "$(dirname "$dir")"
  "$python" -m venv "$dir" >&2 || die "could not create a virtual environment in $dir"
}

# Free space first: a full disk said plainly, before anything is downloaded
# (a virtual environment that cannot be made hides why).
require_free_space() {  # MEGABYTES
  local existing=$dir free_mb
  while [ ! -d "$existing" ]; do existing=$(dirname "$existing"); done
  free_mb=$(( $(df -Pk "$existing" | awk 'NR == 2 { print $4 }') / 1024 ))
  [ "$free_mb" -ge "$1" ] ||
    die "not enough disk space: $free_mb MB free in $existing, about $1 MB needed (No space left on device)"
}

# The whole of a small environment (a requirements file and nothing else):
#   install_pinned REQUIREMENTS CHECKER 'import a, b' WHAT MEGABYTES [--check]
# Idempotent: when $dir holds exactly this set (its stamp names the
# requirements file's hash, and every installed file matches the hash pip
# recorded for it: CHECKER, check-transcriber.py), it changes nothing.
# --check only checks: it prints each damaged file ("damaged: PATH") and exits
# 2 when any is, 1 when nothing is installed, 0 when it is intact.
install_pinned() {
  local requirements=$1 checker=$2 imports=$3 what=$4 megabytes=$5 check_only=${6:-}
  local wanted stamp=$dir/hark-requirements.sha256 damaged path system_python=/usr/bin/python3
  [ -x "$system_python" ] || system_python=$(command -v python3 || echo python3)
  wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
  pinned_installed() {
    [ -x "$dir/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] || return 1
    # The system's Python checks: a damaged environment's own cannot be trusted to.
    damaged=$("$system_python" "$checker" "$dir") && return 0
    while IFS=$'\t' read -r path _; do
      [ -n "$path" ] && say "damaged: $path"
    done <<<"$damaged"
    return 2
  }
  if [ "$check_only" = --check ]; then
    [ -f "$stamp" ] || { say "not installed in $dir"; exit 1; }
    pinned_installed || exit 2
    say "intact"
    exit 0
  fi
  pinned_installed && return 0
  require_free_space "$megabytes"
  say "0-10% creating a Python environment in $dir"
  new_environment /usr/bin/python3
  say "10-40% downloading 1 files: the package installer (pip 26.3)"
  update_pip
  say "40-90% downloading $(files_in "$requirements") files: $what"
  pip_install -r "$requirements" ||
    die "$what could not be installed (no network, or no disk space?); run it again to retry"
  # Its imports must work before it counts as installed.
  say "90-100% checking that it loads"
  "$dir/bin/python" -c "$imports" >&2 || die "$what installed but does not load"
  echo "$wanted" >"$stamp"
  pinned_installed || die "$what is damaged right after its install"
  say "ready"
}
