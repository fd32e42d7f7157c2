#!/usr/bin/env bash
# The Textual adapter (argus.adapters.textual) rasterises Textual's SVG screenshots with
# cairosvg, which loads libcairo, and draws the terminal's text in DejaVu Sans Mono. Install
# Debian's when missing and we are root with apt; elsewhere say what is missing.
set -uo pipefail

have() {
  ldconfig -p 2>/dev/null | grep 'libcairo\.so\.2' >/dev/null \
    && fc-list 2>/dev/null | grep 'DejaVuSansMono\.ttf' >/dev/null
}
have && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  packages="libcairo2 fonts-dejavu-core fontconfig"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $packages >/dev/null 2>&1 || {
    apt-get update -q >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $packages >/dev/null 2>&1
  }
fi
if ! have; then
  echo "argus: libcairo2 or the DejaVu Sans Mono font is missing; the Textual adapter's tests" \
    "skip (apt-get install libcairo2 fonts-dejavu-core)" >&2
fi
exit 0
