module github.com/vireo-go/vireo/internal/wstest

go 1.25

require (
	github.com/coder/websocket v1.8.15
	github.com/gorilla/websocket v1.5.3
	github.com/vireo-go/vireo v0.0.0
)

require (
	github.com/andybalholm/brotli v1.1.0 // indirect
	github.com/klauspost/compress v1.17.9 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	golang.org/x/time v0.12.0 // indirect
)

replace github.com/vireo-go/vireo => ../..
