#!/usr/bin/env bash
# Debian's Chromium, its driver and a CJK font for the browser tests (Playwright drives
# /usr/bin/chromium; `playwright install` cannot download browsers on a closed network), and wrk
# for the load tests.
set -euo pipefail
if [ -x /usr/bin/chromium ] && command -v wrk >/dev/null && fc-list 2>/dev/null | grep -qi "wenquanyi\|wqy"; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver fonts-wqy-microhei wrk >/dev/null
