module github.com/vireo-go/vireo

go 1.23

require (
	github.com/flosch/pongo2/v6 v6.0.0 // indirect
	github.com/gorilla/securecookie v1.1.2 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
)
