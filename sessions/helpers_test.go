// Test helpers: a copying Database that behaves like a remote store (every
// Load is a fresh copy, so the Manager's save path is exercised), and a
// Database that can be switched off to simulate an outage.

package sessions_test

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/vireo-go/vireo/sessions"
)

// copyDB stores snapshots, never the Records it is given, like a remote
// store that serializes them.
type copyDB struct {
	inner *sessions.MemoryDatabase
	saves atomic.Int64
}

func newCopyDB(now func() time.Time) *copyDB {
	return &copyDB{inner: sessions.NewMemoryDatabase(sessions.WithMemoryClock(now), sessions.WithSweepInterval(-1))}
}

func (d *copyDB) Load(ctx context.Context, id string) (*sessions.Record, error) {
	rec, err := d.inner.Load(ctx, id)
	if rec == nil || err != nil {
		return nil, err
	}
	return sessions.NewRecord(rec.Snapshot()), nil
}

func (d *copyDB) Save(ctx context.Context, id string, rec *sessions.Record) error {
	d.saves.Add(1)
	return d.inner.Save(ctx, id, sessions.NewRecord(rec.Snapshot()))
}

func (d *copyDB) Touch(ctx context.Context, id string, exp time.Time) error {
	return d.inner.Touch(ctx, id, exp)
}

func (d *copyDB) Delete(ctx context.Context, id string) error { return d.inner.Delete(ctx, id) }

func (d *copyDB) Rename(ctx context.Context, oldID, newID string, rec *sessions.Record) error {
	return d.inner.Rename(ctx, oldID, newID, sessions.NewRecord(rec.Snapshot()))
}

func (d *copyDB) Close() error { return d.inner.Close() }

var errDown = errors.New("store is down")

// switchDB fails every call while down is set, and only the writes (Save,
// Touch, Rename) while writesDown is set.
type switchDB struct {
	sessions.Database
	down       atomic.Bool
	writesDown atomic.Bool
}

func (d *switchDB) Load(ctx context.Context, id string) (*sessions.Record, error) {
	if d.down.Load() {
		return nil, errDown
	}
	return d.Database.Load(ctx, id)
}

func (d *switchDB) Save(ctx context.Context, id string, rec *sessions.Record) error {
	if d.down.Load() || d.writesDown.Load() {
		return errDown
	}
	return d.Database.Save(ctx, id, rec)
}

func (d *switchDB) Touch(ctx context.Context, id string, exp time.Time) error {
	if d.down.Load() || d.writesDown.Load() {
		return errDown
	}
	return d.Database.Touch(ctx, id, exp)
}

func (d *switchDB) Delete(ctx context.Context, id string) error {
	if d.down.Load() {
		return errDown
	}
	return d.Database.Delete(ctx, id)
}

func (d *switchDB) Rename(ctx context.Context, oldID, newID string, rec *sessions.Record) error {
	if d.down.Load() || d.writesDown.Load() {
		return errDown
	}
	return d.Database.Rename(ctx, oldID, newID, rec)
}
