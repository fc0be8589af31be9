// Package service starts the services an app of a comparison needs beside
// it (redis-server for sessions-redis; PostgreSQL for the database
// comparisons), one instance per app, on a free loopback port, pinned to the
// server CPUs (a service is part of the server side: its cost shows in the
// app's figures as on a machine that runs both), and stops each by its PID.
//
// A comparison names its services in expected/endpoints.json
// ("services": ["redis"]); Lookup finds them in a fixed table. The runner
// never installs anything: a service whose program is missing makes its
// comparison's apps skipped with Missing's reason.
package service

import "context"

// Service is a program an app of a comparison talks to.
type Service interface {
	// Name is the service's name in endpoints.json ("redis").
	Name() string
	// Missing returns why the service cannot run on this machine
	// ("redis-server not found"), or "".
	Missing() string
	// Start starts one instance for an app and waits until it answers.
	Start(ctx context.Context, s Setup) (Instance, error)
}

// Setup is where and how an instance runs.
type Setup struct {
	// Pin is the command prefix (taskset) that places it on the server
	// CPUs; empty when not pinned.
	Pin []string
	// LogPath is the file that receives everything it prints (rewritten
	// by each attempt of a start retried on another port).
	LogPath string
}

// Instance is one started service.
type Instance interface {
	// Env is what the app is given to reach it (REDIS_ADDR=127.0.0.1:port).
	Env() []string
	// Addr is the instance's host:port.
	Addr() string
	// Version is the service's version, recorded as the app's dependency
	// under Program.
	Version() string
	// Program names the service's program in reports ("redis-server").
	Program() string
	// Pid is the process id the instance is stopped by.
	Pid() int
	// Stop ends the instance by its PID; it is a no-op once stopped.
	Stop()
}

// services is the fixed table Lookup reads.
var services = map[string]Service{
	RedisName:    Redis{},
	PostgresName: Postgres{},
}

// Lookup returns the service called name.
func Lookup(name string) (Service, bool) {
	s, ok := services[name]
	return s, ok
}
