#!/bin/sh
# Runs the real-browser test of the mvc-todo example: headless Chromium
# driven by chromedp (module _examples/mvc-todo/browsertest).
#
# Chromium is installed from the Debian packages chromium and
# chromium-driver when it is missing. When it cannot be installed the test
# skips and says why (the script still exits 0); any other failure fails.
#
#   _examples/run-browser-tests.sh            # from anywhere
#   SCREENSHOT_DIR=/tmp/shots _examples/run-browser-tests.sh
set -eu

here=$(cd "$(dirname "$0")" && pwd)

find_chromium() {
	if [ -n "${CHROME_PATH:-}" ] && [ -x "$CHROME_PATH" ]; then
		echo "$CHROME_PATH"
		return 0
	fi
	for name in chromium chromium-browser google-chrome google-chrome-stable; do
		if command -v "$name" >/dev/null 2>&1; then
			command -v "$name"
			return 0
		fi
	done
	return 1
}

if ! find_chromium >/dev/null; then
	echo "run-browser-tests: Chromium not found; installing the Debian packages chromium and chromium-driver"
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo="sudo -n"
		fi
	fi
	if command -v apt-get >/dev/null 2>&1 &&
		$sudo apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null; then
		echo "run-browser-tests: installed $(find_chromium || echo '(still not found)')"
	else
		echo "run-browser-tests: SKIP: could not install Chromium (no apt-get, no root, or no package repository)"
	fi
fi

# The test itself skips with its reason when there is still no browser.
cd "$here/mvc-todo/browsertest"
exec go test -count=1 -v ./...
