package benchtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// lockStamp is written into node_modules after a successful npm ci with the
// SHA-256 of the package-lock.json installed, so an install that matches the
// lock file is never redone.
const lockStamp = ".vireo-lock-sha256"

// NPMCI installs the Node app in dir from its lock file unless the installed
// dependencies already match it. It holds an exclusive flock on
// package-lock.json meanwhile, so the runner and the tests (go test runs
// packages in parallel) never install into the same node_modules at once.
func NPMCI(ctx context.Context, dir string) error {
	lockPath := filepath.Join(dir, "package-lock.json")
	f, err := os.Open(lockPath)
	if err != nil {
		return errors.New("no package-lock.json: npm ci needs one so the versions are pinned")
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("locking %s: %w", lockPath, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	lock, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", lockStamp)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return nil
	}
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %w\n%s", dir, err, out)
	}
	// An app without dependencies (nodejs-h2) gets no node_modules.
	if err := os.MkdirAll(filepath.Dir(stamp), 0o755); err != nil {
		return err
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
}
