#!/usr/bin/env bash
# Make sure a Chromium and the example app's fonts are present. Order of preference:
# ARGUS_BROWSER, Playwright's own Chromium, Debian's chromium (an ARGUS_BROWSER that is not there
# stops here: installing another would not be the one named). When none is found we try
# `playwright install chromium` first and fall back to apt when we are root.
set -uo pipefail
python=${1:-python3}

found_browser() {
  "$python" - <<'PY'
import sys
from argus.sense.browser import discover_browser
from argus.errors import ArgusError, ConfigError
try:
    print(discover_browser())
except ConfigError as err:  # ARGUS_BROWSER names one that is not there: installing won't help
    print(f"argus: {err}", file=sys.stderr)
    sys.exit(3)
except ArgusError:
    sys.exit(1)
PY
}

found_browser >/dev/null
[ $? = 3 ] && exit 2

apt_install() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1 && return 0
  apt-get update -q >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1
}

if ! found_browser >/dev/null 2>&1; then
  echo "argus: no Chromium found; trying 'python -m playwright install chromium'" >&2
  if ! "$python" -m playwright install chromium >/dev/null 2>&1 || ! found_browser >/dev/null 2>&1; then
    echo "argus: Playwright's download failed; installing Debian's chromium" >&2
    apt_install chromium || { echo "argus: could not install a Chromium; install one and set ARGUS_BROWSER" >&2; exit 2; }
  fi
fi

# The example app is designed in Inter; install it when missing so renders match the references.
if command -v fc-list >/dev/null && ! fc-list 2>/dev/null | grep -qi 'Inter'; then
  apt_install fonts-inter || echo "argus: fonts-inter not installed; example renders may differ" >&2
fi
found_browser
