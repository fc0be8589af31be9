module github.com/vireo-go/vireo/h2

go 1.26.0

require golang.org/x/net v0.62.0

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/flosch/pongo2/v6 v6.0.0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	golang.org/x/time v0.15.0 // indirect
)

require (
	github.com/vireo-go/vireo v0.0.0-00010101000000-000000000000
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/vireo-go/vireo => ../
