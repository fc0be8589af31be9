//go:build !unix

// This file is the fallback for systems without process groups and job
// control signals: only the child itself is stopped, and it cannot be
// paused.
package benchtest

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// The signals a Process sends; only sigKill has an effect here.
const (
	sigStop syscall.Signal = -1
	sigCont syscall.Signal = -2
	sigTerm                = syscall.SIGTERM
	sigKill                = syscall.SIGKILL
)

func setProcessGroup(*exec.Cmd) {}

// signalGroup kills the process pid on sigTerm and sigKill; pausing and
// resuming are not supported.
func signalGroup(pid int, sig syscall.Signal) error {
	if sig == sigStop || sig == sigCont {
		return errors.New("pausing a process is not supported on this system")
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
