module github.com/vireo-go/vireo/middleware/ratelimit/redis

go 1.25.0

replace github.com/vireo-go/vireo => ../../../

require (
	github.com/redis/go-redis/v9 v9.17.3
	github.com/vireo-go/vireo v0.0.0
)

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
