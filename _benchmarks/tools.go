//go:build tools

// Package tools pins the command-line tools the benchmark suite builds from
// this module, so that go.sum fixes their versions and no global install is
// needed: the load generator is built with
//
//	go build -o bin/bombardier github.com/codesenberg/bombardier
//
// The tools build tag keeps this file out of every build; go mod tidy still
// sees the import and keeps the requirement.
package tools

import _ "github.com/codesenberg/bombardier"
