module github.com/vireo-go/vireo/_examples/sessions-redis

go 1.25.0

replace github.com/vireo-go/vireo => ../../

replace github.com/vireo-go/vireo/sessions/redis => ../../sessions/redis

require (
	github.com/gorilla/securecookie v1.1.2
	github.com/vireo-go/vireo v0.0.0
	github.com/vireo-go/vireo/sessions/redis v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/redis/go-redis/v9 v9.22.0 // indirect
	github.com/vireo-go/vireo/internal/redisconn v0.0.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/vireo-go/vireo/internal/redisconn => ../../internal/redisconn
