module github.com/vireo-go/vireo/middleware/ratelimit/redis

go 1.25.0

replace github.com/vireo-go/vireo => ../../../

require (
	github.com/redis/go-redis/v9 v9.22.0
	github.com/vireo-go/vireo v0.0.0
)

require (
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
)

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/vireo-go/vireo/internal/redisconn v0.0.0
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/vireo-go/vireo/internal/redisconn => ../../../internal/redisconn
