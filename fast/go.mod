module github.com/vireo-go/vireo/fast

go 1.26.0

replace github.com/vireo-go/vireo => ../

require (
	github.com/valyala/fasthttp v1.79.0
	github.com/vireo-go/vireo v0.0.0-00010101000000-000000000000
)

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/flosch/pongo2/v6 v6.0.0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/molecule-man/go-brrr v1.3.1 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
