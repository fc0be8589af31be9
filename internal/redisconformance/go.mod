module github.com/vireo-go/vireo/internal/redisconformance

go 1.26.0

replace (
	github.com/vireo-go/vireo => ../..
	github.com/vireo-go/vireo/fast => ../../fast
	github.com/vireo-go/vireo/h2 => ../../h2
	github.com/vireo-go/vireo/internal/redisconn => ../redisconn
	github.com/vireo-go/vireo/sessions/redis => ../../sessions/redis
)

require (
	github.com/vireo-go/vireo v0.0.0
	github.com/vireo-go/vireo/fast v0.0.0
	github.com/vireo-go/vireo/h2 v0.0.0
	github.com/vireo-go/vireo/sessions/redis v0.0.0
)

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/flosch/pongo2/v6 v6.0.0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/molecule-man/go-brrr v1.3.1 // indirect
	github.com/redis/go-redis/v9 v9.22.0 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	github.com/valyala/fasthttp v1.79.0 // indirect
	github.com/vireo-go/vireo/internal/redisconn v0.0.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
