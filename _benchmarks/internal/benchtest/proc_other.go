//go:build !unix

// This file is the fallback for systems without process groups: only the
// child itself is stopped.
package benchtest

import "os/exec"

func setProcessGroup(*exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, _ bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
