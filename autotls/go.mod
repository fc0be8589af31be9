module github.com/vireo-go/vireo/autotls

go 1.26.0

replace github.com/vireo-go/vireo => ../

require (
	github.com/vireo-go/vireo v0.0.0
	golang.org/x/crypto v0.59.0
	golang.org/x/net v0.62.0
)

require golang.org/x/text v0.44.0 // indirect
