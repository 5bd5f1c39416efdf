#!/usr/bin/env bash
# What the browser and PostgreSQL tests need from the machine: Chromium (Playwright cannot download its
# own here), as Debian's headless shell for the browser tests and the whole browser for Lighthouse, and
# PostgreSQL's binaries (each run starts a throwaway cluster of its own: scripts/pg-cluster.sh), and
# poppler's tools. Installed from Debian's packages when missing and running as root; otherwise said
# once, so that a developer knows what to install.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing+=(postgresql)
# poppler's pdfsig and pdftotext read the signed NDA and the stamped copies as an independent reader would.
command -v pdfsig >/dev/null 2>&1 || missing+=(poppler-utils)
# The headless shell is a speed-up, not a need: without it the browser tests run on the whole browser.
wanted=()
[ -n "${CHROMIUM_PATH:-}" ] || [ -x /usr/bin/chromium-headless-shell ] || wanted+=(chromium-headless-shell)
[ ${#missing[@]} -eq 0 ] && [ ${#wanted[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
  [ ${#missing[@]} -eq 0 ] && exit 0
  echo "The tests need Debian's ${missing[*]}: install them (apt-get install -y ${missing[*]}), or run as root." >&2
  exit 1
fi
echo "Installing ${missing[*]} ${wanted[*]} for the tests (Debian's packages)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
[ ${#missing[@]} -eq 0 ] || apt-get install -y -qq "${missing[@]}" >/dev/null
[ ${#wanted[@]} -eq 0 ] || apt-get install -y -qq "${wanted[@]}" >/dev/null ||
  echo "No ${wanted[*]}: the browser tests run on the whole browser, more slowly." >&2
