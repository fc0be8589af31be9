// Load: bombardier built from this module (`go build -o bin/bombardier
// github.com/codesenberg/bombardier`, version pinned by go.sum), pinned to
// the load CPUs, run against one server while the server's CPU time and
// memory are measured.
package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// bombardierPackage is the import path of bombardier's main package.
const bombardierPackage = "github.com/codesenberg/bombardier"

// buildBombardier builds bombardier into root/bin and returns its path and
// the module version embedded in the binary.
func buildBombardier(ctx context.Context, root string) (string, string, error) {
	bin := filepath.Join(root, "bin", "bombardier")
	if err := runTool(ctx, root, nil, "go", "build", "-o", bin, bombardierPackage); err != nil {
		return "", "", err
	}
	return bin, goBuildDeps(bin)[bombardierPackage], nil
}

// loader runs bombardier.
type loader struct {
	bin    string
	prefix []string // taskset prefix pinning it to the load CPUs
}

// run runs bombardier with opts and decodes its report. Its stderr is
// returned with any error.
func (l *loader) run(ctx context.Context, opts bombardier.Options) (*bombardier.Report, error) {
	args, err := opts.Args()
	if err != nil {
		return nil, err
	}
	argv := append(append(append([]string(nil), l.prefix...), l.bin), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = os.Environ()
	setGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// bombardier prints its own errors to stdout.
		return nil, fmt.Errorf("bombardier %s: %w\n%s%s", strings.Join(args, " "), err, tail(stdout.String(), 2000), tail(stderr.String(), 2000))
	}
	rep, err := bombardier.Parse(stdout.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%w\nstderr: %s", err, tail(stderr.String(), 2000))
	}
	return rep, nil
}

// measure runs one measured bombardier run against p and returns it with
// the server's CPU seconds during the run and its peak memory so far.
func (l *loader) measure(ctx context.Context, p *Proc, mem *memSampler, opts bombardier.Options, round int) (report.Run, error) {
	run := report.Run{Round: round, StartedAt: time.Now().UTC()}
	cpuBefore := groupCPUSeconds(p.Pid())
	mem.start(sampleInterval)
	rep, err := l.run(ctx, opts)
	mem.stopSampling()
	if err != nil {
		return run, err
	}
	if exited, werr := p.Exited(); exited {
		return run, fmt.Errorf("%s exited during the run (%v)\n%s", p.Name, werr, p.Output())
	}
	run.ServerCPUSeconds = groupCPUSeconds(p.Pid()) - cpuBefore
	run.ServerPeakRSSBytes = mem.Peak()
	run.CgroupMemoryPeakBytes = p.cg.memoryPeak()
	run.Bombardier = rep.Result
	return run, nil
}
