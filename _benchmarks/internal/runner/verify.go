// Verify alone (`bench verify`): build every app of the chosen comparisons,
// start each in turn, check its response against expected/ (status,
// Content-Type, byte-identical body; for sessions also the answer when the
// session cookie is sent back; for a TLS comparison over each protocol of
// its loads, negotiated by ALPN), stop it. No load is generated.
package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// VerifyResult is the outcome for one app.
type VerifyResult struct {
	Comparison string
	App        string
	// Status is "ok", "skipped: <reason>" or "FAILED: <reason>".
	Status string
	// Detail explains a failure (the diff, the app's output).
	Detail string
}

// Verify checks every available app of cfg's comparisons against the
// contract, once per comparison (a TLS comparison over every protocol of
// its loads). The error wraps ErrFailed when an app failed to build, start
// or verify.
func Verify(ctx context.Context, cfg Config) ([]VerifyResult, error) {
	s, err := NewSession(&cfg)
	if err != nil {
		return nil, err
	}
	defer s.StopAll()
	dir, err := os.MkdirTemp("", "vireo-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	s.LogDir = dir
	s.Pin = proc.Pinning{} // verification needs no pinning
	if err := s.makeCert(filepath.Join(dir, "tls")); err != nil {
		return nil, err
	}
	if err := s.BuildApps(ctx); err != nil {
		return nil, err
	}
	var out []VerifyResult
	done := map[string]bool{}
	for i := range s.Plan {
		p := s.Plan[i]
		if done[p.Name] {
			continue // the comparison's first variant checked it all
		}
		done[p.Name] = true
		if !p.Ep.SetCookie {
			p.Variant, p.Protocol = "", "" // every protocol of the loads
		}
		for _, name := range p.Apps {
			r := VerifyResult{Comparison: p.Name, App: name}
			switch {
			case s.Skipped[name] != "":
				r.Status = "skipped: " + s.Skipped[name]
			case s.Failed[name] != "":
				r.Status = "FAILED: " + s.Failed[name]
			default:
				if err := s.verifyOne(ctx, &p, name); err != nil {
					if ctx.Err() != nil {
						return out, ctx.Err()
					}
					r.Status, r.Detail = "FAILED: "+FirstLine(err.Error()), err.Error()
					s.Fail(name, err.Error())
				} else {
					r.Status = "ok"
				}
			}
			s.Logf("verify %-10s %-24s %s", p.Name, name, r.Status)
			if r.Detail != "" {
				s.Logf("%s", r.Detail)
			}
			out = append(out, r)
		}
		for _, name := range p.Unsupported {
			r := VerifyResult{Comparison: p.Name, App: name, Status: "skipped: " + UnsupportedPrefix + p.Ep.Unsupported[name]}
			s.Logf("verify %-10s %-24s %s", p.Name, name, r.Status)
			out = append(out, r)
		}
	}
	if len(s.failures) > 0 {
		return out, fmt.Errorf("%w: %d app(s) failed verification:\n  %s", ErrFailed, len(s.failures), strings.Join(s.failures, "\n  "))
	}
	return out, nil
}

func (s *Session) verifyOne(ctx context.Context, p *Planned, name string) error {
	a := s.Apps[name]
	ports, err := s.Ports(1)
	if err != nil {
		return err
	}
	if s.Cfg.BasePort > 0 {
		ports[0] = s.Cfg.BasePort
	}
	lv := &Live{App: a, Row: &report.App{Name: name}}
	env, err := s.StartServices(ctx, p, lv)
	if err != nil {
		return err
	}
	defer s.StopServicesOf(lv)
	env = append(append(append([]string(nil), a.Env...), s.AppEnv(p)...), env...)
	pr, err := s.Group.Start(ctx, proc.Spec{Name: name, Argv: a.Argv, Env: env, Dir: a.Dir, Port: ports[0], TLS: p.Ep.TLS}, s.Cfg.StartTimeout)
	if err != nil {
		return err
	}
	defer s.Group.Remove(pr)
	_, err = s.Verify(pr.URL(), p)
	return err
}
