module github.com/vireo-go/vireo/internal/wstest

go 1.25.0

require (
	github.com/coder/websocket v1.8.15
	github.com/gorilla/websocket v1.5.3
	github.com/vireo-go/vireo v0.0.0
)

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/vireo-go/vireo => ../..
