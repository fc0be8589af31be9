#!/bin/sh
# Runs the real-browser test of the mvc-todo example: headless Chromium
# driven by chromedp (module _examples/mvc-todo/browsertest). The test
# finds Chromium (CHROME_PATH, or chromium on PATH) and installs the Debian
# package chromium when it is missing and it runs as root; without it the
# test skips saying why, or fails under CI=true.
#
#   _examples/run-browser-tests.sh            # from anywhere
#   SCREENSHOT_DIR=/tmp/shots _examples/run-browser-tests.sh
set -eu
cd "$(dirname "$0")/mvc-todo/browsertest"
exec go test -count=1 -v ./...
