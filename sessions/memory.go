// This file implements MemoryDatabase, the default in-process store.
//
// Records live in a fixed number of shards, each a map guarded by its own
// RWMutex, so concurrent requests on different sessions rarely meet on a
// lock and a lookup of a session that came back before takes only a read
// lock. An ID made by NewID is 128 random bits, so its first characters
// pick its shard themselves (the top bits of their product with an odd
// constant): every stored ID is the server's, so the shards fill evenly
// whatever IDs clients send, and no hash function runs. Other strings (a
// caller of the Database may use IDs of its own) pick theirs by a seeded
// hash. A new session's record, under the ID just drawn for it, is
// inserted without looking that ID up first: two IDs of 128 random bits do
// not collide. The stored value is the *Record itself (MemoryDatabase is a
// SharedDatabase): a Session mutates it in place under the Record's own
// lock, so nothing is copied or saved back.
//
// Expiry is checked on every load (an expired record is removed then) and a
// sweeper goroutine removes the ones nobody asks for again, one shard at a
// time so a sweep never blocks the whole store. The sweeper stops on Close.
//
// Size is capped (WithMaxSessions) with a segmented policy, as in SLRU and
// 2Q caches: a stored record starts in its shard's probation segment, a
// FIFO queue of IDs; the first load that finds it (its cookie came back)
// moves it to the protected segment, once, by a flag on the record. The
// queue keeps the IDs of records that left probation since (promoted,
// deleted, expired) until they reach its front or a compaction drops them;
// it is compacted when it holds twice as many IDs as probation has records,
// so it stays within a few words per session and the records themselves
// carry no links for the garbage collector to follow.
// When a shard is full, an insertion first drops expired records, then the
// oldest record of probation, and only when probation is empty the record
// closest to expiry among a small random sample of the protected ones.
// Clients that never return their cookie (a flood, crawlers) therefore only
// ever evict each other, and a returning user is evicted only when every
// session of the shard is a returning one.

package sessions

import (
	"context"
	"hash/maphash"
	"math"
	"sync"
	"time"
)

const (
	// DefaultShards is the number of shards of a MemoryDatabase.
	DefaultShards = 128
	// DefaultMaxSessions is the default cap of a MemoryDatabase: about 1M
	// sessions (see the package documentation for the memory it takes).
	DefaultMaxSessions = 1 << 20
	// DefaultSweepInterval is how often the sweeper removes expired records.
	DefaultSweepInterval = time.Minute
	// evictionSample is how many protected records an insertion into a
	// full shard without probation records looks at to choose a victim.
	evictionSample = 5
	// scanGap is the shortest time between two full scans of a shard by
	// evict.
	scanGap = time.Second
)

// MemoryOption configures a MemoryDatabase; pass options to
// NewMemoryDatabase.
type MemoryOption func(*memorySettings)

type memorySettings struct {
	shards        int
	maxSessions   int
	sweepInterval time.Duration
	now           func() time.Time
}

// WithShards sets the number of independently locked maps, rounded up to a
// power of two. Default DefaultShards; values below 1 mean 1.
func WithShards(n int) MemoryOption {
	return func(s *memorySettings) { s.shards = n }
}

// WithMaxSessions caps the number of stored sessions (see the package
// documentation for the eviction policy). Default DefaultMaxSessions; a
// negative value removes the cap (memory then grows with the rate of new
// sessions times their lifetime).
func WithMaxSessions(n int) MemoryOption {
	return func(s *memorySettings) { s.maxSessions = n }
}

// WithSweepInterval sets the period of the sweeper goroutine. Default
// DefaultSweepInterval; a negative value starts no goroutine (expired
// records are then removed only on access, by eviction or by Sweep).
func WithSweepInterval(d time.Duration) MemoryOption {
	return func(s *memorySettings) { s.sweepInterval = d }
}

// WithMemoryClock sets the store's clock, time.Now by default; tests
// inject a fake one. A Manager that creates its store passes its own.
func WithMemoryClock(now func() time.Time) MemoryOption {
	return func(s *memorySettings) { s.now = now }
}

// MemoryDatabase is the in-memory Database. Create it with
// NewMemoryDatabase and stop its sweeper with Close.
type MemoryDatabase struct {
	shards   []memShard
	mask     uint64
	shift    uint // 64 - log2(len(shards)): the top bits of an ID's mix
	seed     maphash.Seed
	perShard int // 0 = no cap
	now      func() time.Time

	stop      chan struct{}
	done      chan struct{} // closed when the sweeper has returned; nil without sweeper
	closeOnce sync.Once
}

var _ SharedDatabase = (*MemoryDatabase)(nil)

type memShard struct {
	mu sync.RWMutex
	m  map[string]*Record
	// queue[front:] are the IDs of the probation segment (records stored
	// and never loaded since), oldest first, with the IDs of records that
	// left it since; probation is the number of records still in it.
	// Guarded by mu.
	queue     []string
	front     int
	probation int
	// minExp is the earliest expiry seen by the last full scan: before
	// it, no record of the shard can have expired. Guarded by mu.
	minExp int64
	// nextScan is the earliest time evict may scan the shard again.
	nextScan int64
	// pad makes a shard 128 bytes, so two shards' locks never share a
	// cache line (nor an adjacent-line prefetch pair): a read lock writes
	// to the lock, and neighbours would bounce the line between cores.
	_ [40]byte
}

// NewMemoryDatabase returns an in-memory Database and starts its sweeper.
func NewMemoryDatabase(opts ...MemoryOption) *MemoryDatabase {
	return newMemoryDatabase(nil, opts...)
}

// newMemoryDatabase lets tests drive the sweeper with their own tick channel.
func newMemoryDatabase(tick <-chan time.Time, opts ...MemoryOption) *MemoryDatabase {
	var cfg memorySettings
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	n, shift := 1, uint(64)
	want := cfg.shards
	if want == 0 {
		want = DefaultShards
	}
	for n < want {
		n <<= 1
		shift--
	}
	db := &MemoryDatabase{
		shards: make([]memShard, n),
		mask:   uint64(n - 1),
		shift:  shift,
		seed:   maphash.MakeSeed(),
		now:    cfg.now,
		stop:   make(chan struct{}),
	}
	if db.now == nil {
		db.now = time.Now
	}
	max := cfg.maxSessions
	if max == 0 {
		max = DefaultMaxSessions
	}
	if max > 0 {
		db.perShard = (max + n - 1) / n
	}
	for i := range db.shards {
		db.shards[i].m = make(map[string]*Record)
	}
	interval := cfg.sweepInterval
	if interval == 0 {
		interval = DefaultSweepInterval
	}
	if tick == nil && interval > 0 {
		t := time.NewTicker(interval)
		db.done = make(chan struct{})
		go db.sweeper(t.C, t.Stop)
	} else if tick != nil {
		db.done = make(chan struct{})
		go db.sweeper(tick, func() {})
	}
	return db
}

// shard returns the shard of id: for an ID of NewID's length, the top bits
// of its first eight characters times an odd constant (Fibonacci hashing;
// the characters carry 48 random bits); for any other string, its seeded
// hash.
func (db *MemoryDatabase) shard(id string) *memShard {
	if len(id) != IDLength {
		return &db.shards[maphash.String(db.seed, id)&db.mask]
	}
	x := uint64(id[0]) | uint64(id[1])<<8 | uint64(id[2])<<16 | uint64(id[3])<<24 |
		uint64(id[4])<<32 | uint64(id[5])<<40 | uint64(id[6])<<48 | uint64(id[7])<<56
	return &db.shards[(x*0x9e3779b97f4a7c15)>>db.shift]
}

// inProbation reports whether rec is in the probation segment of s, where
// it is stored under id. The caller holds s.mu.
func (s *memShard) inProbation(id string, rec *Record) bool {
	return s.m[id] == rec && rec.flags.Load()&flagProtected == 0
}

// enqueue adds id, a new probation record, to the queue. Before, it
// reclaims the queue's consumed front once it is half the slice, and drops
// the stale IDs once they are half the queue, so the queue stays within
// about four words per probation record at an amortized O(1) cost. The
// caller holds s.mu for writing.
func (s *memShard) enqueue(id string) {
	if s.front > 0 && s.front >= len(s.queue)/2 {
		n := copy(s.queue, s.queue[s.front:])
		clear(s.queue[n:])
		s.queue, s.front = s.queue[:n], 0
	}
	if n := len(s.queue) - s.front; n >= 2*s.probation+32 {
		kept := s.queue[:0]
		for _, k := range s.queue[s.front:] {
			if rec := s.m[k]; rec != nil && rec.flags.Load()&flagProtected == 0 {
				kept = append(kept, k)
			}
		}
		clear(s.queue[len(kept):])
		s.queue, s.front = kept, 0
	}
	s.queue = append(s.queue, id)
}

// dequeue removes and returns the oldest ID of the queue, or "" when it is
// empty. The caller holds s.mu for writing.
func (s *memShard) dequeue() string {
	if s.front == len(s.queue) {
		s.queue, s.front = s.queue[:0], 0
		return ""
	}
	id := s.queue[s.front]
	s.queue[s.front] = ""
	s.front++
	return id
}

// remove deletes rec, stored under id, and marks it destroyed. Its ID, if
// queued, becomes stale. The caller holds s.mu for writing.
func (s *memShard) remove(id string, rec *Record) {
	delete(s.m, id)
	if rec.flags.Load()&flagProtected == 0 {
		s.probation--
	}
	rec.markDestroyed()
}

// Load returns the stored record, removing it when it has expired.
func (db *MemoryDatabase) Load(_ context.Context, id string) (*Record, error) {
	return db.LoadAt(id, db.now()), nil
}

// LoadAt is Load with the caller's clock reading (the Manager has one
// already, and a clock read costs as much as the lookup). Finding a record
// moves it from probation to the protected segment.
func (db *MemoryDatabase) LoadAt(id string, now time.Time) *Record {
	s := db.shard(id)
	s.mu.RLock()
	rec := s.m[id]
	s.mu.RUnlock()
	if rec == nil {
		return nil
	}
	if rec.Expired(now) {
		s.mu.Lock()
		if s.m[id] == rec {
			s.remove(id, rec)
		}
		s.mu.Unlock()
		rec.markDestroyed()
		return nil
	}
	if rec.flags.Load()&flagProtected == 0 {
		s.mu.Lock()
		if s.inProbation(id, rec) {
			rec.setFlag(flagProtected)
			s.probation--
		}
		s.mu.Unlock()
	}
	return rec
}

// Save stores rec under id, evicting a record first when the shard is full.
// A new record starts in probation; one replacing a protected record of the
// same id stays protected.
func (db *MemoryDatabase) Save(_ context.Context, id string, rec *Record) error {
	rec.markStored()
	s := db.shard(id)
	s.mu.Lock()
	old, ok := s.m[id]
	switch {
	case old == rec:
	case ok:
		// rec takes old's place, in old's segment (and queue position).
		if old.flags.Load()&flagProtected != 0 {
			rec.setFlag(flagProtected)
		} else if rec.flags.Load()&flagProtected != 0 {
			s.probation--
		}
		s.m[id] = rec
		old.markDestroyed()
	default:
		if db.perShard > 0 && len(s.m) >= db.perShard {
			db.evict(s)
		}
		db.insert(s, id, rec, rec.flags.Load()&flagProtected != 0)
	}
	s.mu.Unlock()
	return nil
}

// insertNew stores rec, the record of a new session, under id, which NewID
// drew for it: nothing can be stored under id yet, so unlike Save it does
// not look id up first. Only the first call for rec inserts it (concurrent
// first writes of one session), and a record destroyed in the meantime is
// not inserted.
func (db *MemoryDatabase) insertNew(id string, rec *Record) {
	if !rec.markStored() {
		return
	}
	s := db.shard(id)
	s.mu.Lock()
	if !rec.destroyed() {
		if db.perShard > 0 && len(s.m) >= db.perShard {
			db.evict(s)
		}
		db.insert(s, id, rec, false)
	}
	s.mu.Unlock()
}

// insert stores rec under id, in probation unless protected. The caller
// holds s.mu for writing.
func (db *MemoryDatabase) insert(s *memShard, id string, rec *Record, protected bool) {
	s.m[id] = rec
	if protected {
		rec.setFlag(flagProtected)
	} else {
		s.probation++
		s.enqueue(id)
	}
}

// evict makes room in a full shard. The caller holds s.mu.
//
// When a record of the shard may have expired (the clock passed the
// earliest expiry seen by the last scan), a full scan removes every expired
// record, at most once per scanGap so that a steady flood cannot turn each
// insertion into an O(shard) scan. When that frees nothing, the oldest
// probation record goes; without any, the protected record closest to
// expiry among a random sample of evictionSample.
func (db *MemoryDatabase) evict(s *memShard) {
	now := db.now().UnixNano()
	if now >= s.minExp && now >= s.nextScan {
		s.nextScan = now + int64(scanGap)
		s.minExp = db.removeExpired(s, now)
		if len(s.m) < db.perShard {
			return
		}
	}
	for s.probation > 0 {
		id := s.dequeue()
		if id == "" {
			break
		}
		if rec := s.m[id]; rec != nil && rec.flags.Load()&flagProtected == 0 {
			s.remove(id, rec)
			return
		}
	}
	var victim *Record
	var victimID string
	seen := 0
	// Map iteration starts at a random position, which makes this a
	// random sample.
	for id, rec := range s.m {
		exp := rec.expires.Load()
		if exp <= now {
			s.remove(id, rec)
			return
		}
		if victim == nil || exp < victim.expires.Load() {
			victim, victimID = rec, id
		}
		if seen++; seen >= evictionSample {
			break
		}
	}
	if victim != nil {
		s.remove(victimID, victim)
	}
}

// removeExpired deletes the records of s expired at now and returns the
// earliest expiry among those left. The caller holds s.mu for writing.
func (db *MemoryDatabase) removeExpired(s *memShard, now int64) int64 {
	minExp := int64(math.MaxInt64)
	for id, rec := range s.m {
		exp := rec.expires.Load()
		if exp <= now {
			s.remove(id, rec)
			continue
		}
		if exp < minExp {
			minExp = exp
		}
	}
	return minExp
}

// Touch moves the expiry of the record stored under id.
func (db *MemoryDatabase) Touch(_ context.Context, id string, expiresAt time.Time) error {
	s := db.shard(id)
	s.mu.RLock()
	rec := s.m[id]
	s.mu.RUnlock()
	if rec != nil {
		rec.SetExpiresAt(expiresAt)
	}
	return nil
}

// Delete removes the record stored under id and marks it destroyed, so
// every Session still holding it sees it empty.
func (db *MemoryDatabase) Delete(_ context.Context, id string) error {
	s := db.shard(id)
	s.mu.Lock()
	if rec := s.m[id]; rec != nil {
		s.remove(id, rec)
	}
	s.mu.Unlock()
	return nil
}

// Rename moves rec from oldID to newID, in the same segment. The old ID is
// removed first, so no moment exists where it is still readable after the
// new one is.
func (db *MemoryDatabase) Rename(_ context.Context, oldID, newID string, rec *Record) error {
	s := db.shard(oldID)
	s.mu.Lock()
	old := s.m[oldID]
	if old != nil {
		delete(s.m, oldID)
		if old.flags.Load()&flagProtected == 0 {
			s.probation--
		}
	}
	s.mu.Unlock()
	if old != nil && old != rec {
		old.markDestroyed()
		if old.flags.Load()&flagProtected != 0 {
			rec.setFlag(flagProtected)
		}
	}
	return db.Save(context.Background(), newID, rec)
}

// Len returns the number of stored records, expired ones not yet removed
// included.
func (db *MemoryDatabase) Len() int {
	n := 0
	for i := range db.shards {
		s := &db.shards[i]
		s.mu.RLock()
		n += len(s.m)
		s.mu.RUnlock()
	}
	return n
}

// Sweep removes every expired record now and returns how many it removed.
// The sweeper goroutine calls it periodically.
func (db *MemoryDatabase) Sweep() int {
	removed := 0
	for i := range db.shards {
		now := db.now().UnixNano()
		s := &db.shards[i]
		// A read-locked scan first: most sweeps of most shards find
		// nothing, and then writers are never blocked.
		s.mu.RLock()
		stale := false
		for _, rec := range s.m {
			if rec.expires.Load() <= now {
				stale = true
				break
			}
		}
		s.mu.RUnlock()
		if !stale {
			continue
		}
		s.mu.Lock()
		before := len(s.m)
		s.minExp = db.removeExpired(s, now)
		removed += before - len(s.m)
		s.mu.Unlock()
	}
	return removed
}

func (db *MemoryDatabase) sweeper(tick <-chan time.Time, stopTicker func()) {
	defer close(db.done)
	defer stopTicker()
	for {
		select {
		case <-db.stop:
			return
		case <-tick:
			db.Sweep()
		}
	}
}

// Close stops the sweeper and waits for it to return. The stored sessions
// stay readable. It is safe to call more than once.
func (db *MemoryDatabase) Close() error {
	db.closeOnce.Do(func() {
		close(db.stop)
		if db.done != nil {
			<-db.done
		}
	})
	return nil
}
