// bombardier, built from this module (`go build -o bin/bombardier
// github.com/codesenberg/bombardier`, version pinned by go.sum), run with
// JSON output of the result and latency percentiles.
package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
)

// BombardierPackage is the import path of bombardier's main package.
const BombardierPackage = "github.com/codesenberg/bombardier"

// Bombardier runs bombardier.
type Bombardier struct {
	pin []string
	bin string // set by Prepare
}

// Name is "bombardier".
func (*Bombardier) Name() string { return BombardierName }

// Prepare builds bombardier into root/bin and returns the module version
// embedded in the binary.
func (b *Bombardier) Prepare(ctx context.Context, root string) (string, error) {
	bin := filepath.Join(root, "bin", "bombardier")
	if err := stack.RunTool(ctx, root, nil, "go", "build", "-o", bin, BombardierPackage); err != nil {
		return "", err
	}
	b.bin = bin
	return stack.GoBuildDeps(bin)[BombardierPackage], nil
}

// Run runs bombardier and decodes its report. Its stderr is returned with
// any error.
func (b *Bombardier) Run(ctx context.Context, t Target, o Options) (report.Load, error) {
	if b.bin == "" {
		return report.Load{}, errors.New("load: bombardier was not prepared")
	}
	if t.Protocol != "" && t.Protocol != "http/1.1" {
		return report.Load{}, fmt.Errorf("load: bombardier speaks HTTP/1.1, not %s", t.Protocol)
	}
	args, err := bombardier.Options{URL: t.URL, Connections: o.Connections, Requests: o.Requests, Duration: o.Duration,
		Timeout: o.Timeout, Headers: t.Headers, Rate: o.Rate, Method: t.Method, Body: t.Body}.Args()
	if err != nil {
		return report.Load{}, err
	}
	stdout, stderr, err := run(ctx, b.pin, b.bin, args)
	if err != nil {
		// bombardier prints its own errors to stdout.
		return report.Load{}, fmt.Errorf("bombardier %s: %w\n%s%s", strings.Join(args, " "), err, proc.Tail(stdout, 2000), proc.Tail(stderr, 2000))
	}
	rep, err := bombardier.Parse([]byte(stdout))
	if err != nil {
		return report.Load{}, fmt.Errorf("%w\nstderr: %s", err, proc.Tail(stderr, 2000))
	}
	return report.Load{Bombardier: &rep.Result}, nil
}

// run runs bin with args behind the pin prefix in a process group of its
// own and returns what it printed.
func run(ctx context.Context, pin []string, bin string, args []string) (string, string, error) {
	argv := append(append(append([]string(nil), pin...), bin), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = os.Environ()
	proc.SetGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w (%s did not finish)", ctx.Err(), filepath.Base(bin))
	}
	return stdout.String(), stderr.String(), err
}
