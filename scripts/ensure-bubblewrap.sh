#!/usr/bin/env bash
# Argus confines every program the builder controls with bubblewrap (docs/security.md). Install
# Debian's when it is missing and we are root with apt; elsewhere say what runs fall back to.
set -uo pipefail

command -v bwrap >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap >/dev/null 2>&1 || {
    apt-get update -q >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap >/dev/null 2>&1
  }
fi
if ! command -v bwrap >/dev/null 2>&1; then
  echo "argus: bubblewrap (bwrap) is not installed; runs fall back to Landlock where the kernel" \
    "has it, else they are 'hash-checked only' (docs/security.md)" >&2
fi
exit 0
