// Package browsertest drives the debugger's page in a real headless Chromium
// with chromedp. It is a module of its own, so that archai's main module
// never depends on chromedp:
//
//	cd systems/debugview/browsertest && go test ./...
//
// Without a Chromium (Debian's chromium package, or chromium-browser,
// google-chrome, headless-shell on the PATH, or the path in
// ARCHAI_CHROMIUM) the tests skip with a message, unless CI=true, where
// they fail: .ci/run installs Chromium when it is missing.
//
// With DEBUGVIEW_URL set to a running page (go run ./cmd/bench -serve
// localhost:8080), TestScreenshotOfARunningPage selects an agent there and
// saves a screenshot to DEBUGVIEW_SHOT (the README's picture).
package browsertest
