// Verify alone (`bench verify`): build every app of the chosen comparisons,
// start each in turn, check its response against expected/ (status,
// Content-Type, byte-identical body; for sessions also the answer when the
// session cookie is sent back), stop it. No load is generated.
package runner

import (
	"context"
	"fmt"
	"os"
	"strings"
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
// contract. The error wraps ErrFailed when an app failed to build, start or
// verify.
func Verify(ctx context.Context, cfg Config) ([]VerifyResult, error) {
	s, plan, err := newSession(&cfg)
	if err != nil {
		return nil, err
	}
	defer s.stopRedis() // after the apps, which StopAll stops first
	defer s.group.StopAll()
	dir, err := os.MkdirTemp("", "vireo-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	s.logDir = dir
	s.pin = pinning{} // verification needs no pinning
	if err := s.buildApps(ctx, plan); err != nil {
		return nil, err
	}
	var out []VerifyResult
	for i := range plan {
		p := &plan[i]
		if p.variant == VariantCookieKeeping {
			continue // the cookie-less pass already sends the cookie back
		}
		for _, name := range p.apps {
			r := VerifyResult{Comparison: p.name, App: name}
			switch {
			case s.skipped[name] != "":
				r.Status = "skipped: " + s.skipped[name]
			case s.failed[name] != "":
				r.Status = "FAILED: " + s.failed[name]
			default:
				if err := s.verifyOne(ctx, p, name); err != nil {
					if ctx.Err() != nil {
						return out, ctx.Err()
					}
					r.Status, r.Detail = "FAILED: "+firstLine(err.Error()), err.Error()
					s.fail(name, err.Error())
				} else {
					r.Status = "ok"
				}
			}
			s.logf("verify %-10s %-24s %s", p.name, name, r.Status)
			if r.Detail != "" {
				s.logf("%s", r.Detail)
			}
			out = append(out, r)
		}
	}
	if len(s.failures) > 0 {
		return out, fmt.Errorf("%w: %d app(s) failed verification:\n  %s", ErrFailed, len(s.failures), strings.Join(s.failures, "\n  "))
	}
	return out, nil
}

func (s *session) verifyOne(ctx context.Context, p *planned, name string) error {
	a := s.apps[name]
	ports, err := s.ports(1)
	if err != nil {
		return err
	}
	if s.cfg.BasePort > 0 {
		ports[0] = s.cfg.BasePort
	}
	env := a.env
	if p.ep.Redis {
		r, addr, err := s.startRedis(ctx, p.key(), name)
		if err != nil {
			return err
		}
		defer r.Stop()
		env = append(append([]string(nil), env...), addr)
	}
	proc, err := s.group.Start(ctx, ProcSpec{Name: name, Argv: a.argv, Env: env, Dir: a.dir, Port: ports[0]}, s.cfg.StartTimeout)
	if err != nil {
		return err
	}
	defer s.group.Remove(proc)
	_, err = s.verify(proc.URL(), p)
	return err
}
