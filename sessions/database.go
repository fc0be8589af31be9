// This file defines Database, the storage contract behind a Manager, and
// SharedDatabase, the optional interface of stores that keep the records
// themselves.
//
// The contract is whole-record: Load returns everything a session holds,
// Save writes everything back. That is one round trip per request for a
// remote store, and it lets the in-memory store hand out the stored
// *Record itself (SharedDatabase), so its sessions are never copied. Every method returns an
// error so that a store outage reaches the Manager, which turns it into a
// 503 instead of silently starting an empty session over the user's data.

package sessions

import (
	"context"
	"time"
)

// Database stores session records by ID. Implementations must be safe for
// concurrent use. IDs passed in are always made by NewID.
type Database interface {
	// Load returns the record stored under id, or (nil, nil) when there is
	// none or it has expired. An error means the store could not answer.
	Load(ctx context.Context, id string) (*Record, error)
	// Save stores rec under id until rec.ExpiresAt(), replacing what was
	// there. A record whose expiry has passed may be dropped instead.
	Save(ctx context.Context, id string, rec *Record) error
	// Touch moves the expiry of the record stored under id to expiresAt
	// without rewriting its values (sliding expiration). Touching an
	// unknown id is not an error.
	Touch(ctx context.Context, id string, expiresAt time.Time) error
	// Delete removes the record stored under id. Deleting an unknown id is
	// not an error.
	Delete(ctx context.Context, id string) error
	// Rename stores rec under newID and removes oldID. When it returns
	// without error, Load(oldID) finds nothing.
	Rename(ctx context.Context, oldID, newID string, rec *Record) error
	// Close releases the store's resources (the in-memory store stops its
	// sweeper goroutine). It is safe to call more than once.
	Close() error
}

// SharedDatabase is an optional interface of a Database whose records are
// shared rather than copied: LoadAt returns the stored *Record itself, so a
// change made through a Session is the stored state at once and never needs
// saving (MemoryDatabase is one). The Manager then stores a new session
// once, at its first write, skips the save before the response, and keeps
// one *Session handle per record instead of one per request. Load must
// return the same records.
type SharedDatabase interface {
	Database
	// LoadAt returns the record stored under id, or nil when there is none
	// or it has expired at now (the caller's clock reading). It cannot fail.
	LoadAt(id string, now time.Time) *Record
}
