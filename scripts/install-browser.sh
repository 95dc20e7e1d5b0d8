#!/usr/bin/env bash
# Installs headless Chromium and its WebDriver (Debian's `chromium` and
# `chromium-driver`) for the browser tests, when they are missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-browser: chromium or chromedriver is missing; run as root to install them" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null
command -v chromium >/dev/null && command -v chromedriver >/dev/null
echo "install-browser: $(chromium --version 2>/dev/null || echo chromium) and chromedriver installed"
