module github.com/vireo-go/vireo/_examples/chat

go 1.25.0

replace github.com/vireo-go/vireo => ../../

require (
	github.com/chromedp/chromedp v0.23.1
	github.com/coder/websocket v1.8.15
	github.com/vireo-go/vireo v0.0.0
)

require (
	github.com/chromedp/cdproto v0.160.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
)
