module github.com/vireo-go/vireo

go 1.25.0

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/flosch/pongo2/v6 v6.0.0
	github.com/gorilla/securecookie v1.1.2
	github.com/klauspost/compress v1.20.4
	golang.org/x/time v0.15.0
)
