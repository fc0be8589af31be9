// Unit tests of the package internals: IDs, records, typed conversions and
// the memory database's sweeper and cap.

package sessions

import (
	"context"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/json"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestNewIDUniqueAndValid(t *testing.T) {
	seen := make(map[string]bool)
	for i := 0; i < 2000; i++ {
		id, err := NewID()
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != IDLength || !ValidID(id) {
			t.Fatalf("NewID returned %q, which ValidID rejects", id)
		}
		if seen[id] {
			t.Fatalf("duplicate ID %q", id)
		}
		seen[id] = true
	}
}

func TestValidID(t *testing.T) {
	id, _ := NewID()
	nonCanonical := id[:IDLength-1] + "B" // 'B' has a low bit set
	tests := []struct {
		in   string
		want bool
	}{
		{id, true},
		{"AAAAAAAAAAAAAAAAAAAAAA", true},
		{"", false},
		{"short", false},
		{id + "A", false},
		{id[:IDLength-1] + "!", false},
		{"AAAAAAAAAA/AAAAAAAAAAA", false},
		{"AAAAAAAAAA+AAAAAAAAAAA", false},
		{nonCanonical, false},
		{"ÄAAAAAAAAAAAAAAAAAAAA", false},
	}
	for _, tt := range tests {
		if got := ValidID(tt.in); got != tt.want {
			t.Errorf("ValidID(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func testSession(values ...Entry) *Session {
	m := MustNew(WithDatabase(NewMemoryDatabase(WithSweepInterval(-1))))
	rec := NewRecord(Snapshot{Values: values, ExpiresAt: time.Now().Add(time.Hour)})
	return &Session{m: m, rec: rec, id: "x"}
}

func TestTypedGetters(t *testing.T) {
	s := testSession(
		Entry{"int", 7}, Entry{"int64", int64(1) << 40}, Entry{"uint8", uint8(200)},
		Entry{"float", 2.0}, Entry{"frac", 2.5}, Entry{"huge", 1e300}, Entry{"num", json.Number("12")},
		Entry{"numf", json.Number("1.5")}, Entry{"str", "hello"}, Entry{"strnum", "34"}, Entry{"bytes", []byte("b")},
		Entry{"bool", true}, Entry{"strbool", "true"}, Entry{"maxu", uint64(math.MaxUint64)},
	)
	ints := []struct {
		key  string
		want int64
	}{
		{"int", 7}, {"int64", 1 << 40}, {"uint8", 200}, {"float", 2}, {"num", 12}, {"strnum", 34},
		{"frac", -1}, {"huge", -1}, {"str", -1}, {"bool", -1}, {"missing", -1}, {"maxu", -1}, {"numf", -1},
	}
	for _, tt := range ints {
		if got := s.GetInt64(tt.key, -1); got != tt.want {
			t.Errorf("GetInt64(%s) = %d, want %d", tt.key, got, tt.want)
		}
		if got := s.GetInt(tt.key, -1); int64(got) != tt.want {
			t.Errorf("GetInt(%s) = %d, want %d", tt.key, got, tt.want)
		}
	}
	floats := []struct {
		key  string
		want float64
	}{{"frac", 2.5}, {"int", 7}, {"numf", 1.5}, {"strnum", 34}, {"str", -1}, {"missing", -1}}
	for _, tt := range floats {
		if got := s.GetFloat64(tt.key, -1); got != tt.want {
			t.Errorf("GetFloat64(%s) = %g, want %g", tt.key, got, tt.want)
		}
	}
	strs := []struct{ key, want string }{{"str", "hello"}, {"bytes", "b"}, {"num", "-"}, {"int", "-"}, {"missing", "-"}}
	for _, tt := range strs {
		if got := s.GetString(tt.key, "-"); got != tt.want {
			t.Errorf("GetString(%s) = %q, want %q", tt.key, got, tt.want)
		}
	}
	bools := []struct {
		key       string
		def, want bool
	}{{"bool", false, true}, {"strbool", false, true}, {"str", true, true}, {"int", false, false}, {"missing", true, true}}
	for _, tt := range bools {
		if got := s.GetBool(tt.key, tt.def); got != tt.want {
			t.Errorf("GetBool(%s) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

func TestRecordValuesAndFlashes(t *testing.T) {
	s := testSession()
	s.Set("a", 1)
	s.Set("b", 2)
	s.Set("a", 3)
	s.SetFlash("a", "flash")
	if got := s.Get("a"); got != 3 {
		t.Fatalf("Get(a) = %v, want 3 (flash keys are separate)", got)
	}
	if s.Len() != 2 || !equalStrings(s.Keys(), []string{"a", "b"}) {
		t.Fatalf("Len %d Keys %v, want 2 [a b]", s.Len(), s.Keys())
	}
	if !s.HasFlash("a") || s.PeekFlash("a") != "flash" || s.HasFlash("b") {
		t.Fatal("HasFlash/PeekFlash wrong")
	}
	if got := s.GetFlash("a"); got != "flash" {
		t.Fatalf("GetFlash = %v", got)
	}
	if s.HasFlash("a") || s.GetFlash("a") != nil {
		t.Fatal("a flash survived its first read")
	}
	if !s.Delete("a") || s.Delete("a") || s.Get("a") != nil {
		t.Fatal("Delete wrong")
	}
	s.Clear()
	if s.Len() != 0 || len(s.Keys()) != 0 {
		t.Fatal("Clear left values")
	}
}

func TestRecordIndexAboveThreshold(t *testing.T) {
	s := testSession()
	const n = 100
	for i := 0; i < n; i++ {
		s.Set("k"+strconv.Itoa(i), i)
		s.SetFlash("k"+strconv.Itoa(i), -i)
	}
	if s.rec.keyIndex() == nil {
		t.Fatal("no index above the threshold")
	}
	for i := 0; i < n; i += 2 {
		if !s.Delete("k" + strconv.Itoa(i)) {
			t.Fatalf("Delete(k%d) found nothing", i)
		}
	}
	for i := 0; i < n; i++ {
		want := any(nil)
		if i%2 == 1 {
			want = i
		}
		if got := s.Get("k" + strconv.Itoa(i)); got != want {
			t.Fatalf("Get(k%d) = %v, want %v", i, got, want)
		}
		if got := s.PeekFlash("k" + strconv.Itoa(i)); got != -i {
			t.Fatalf("PeekFlash(k%d) = %v", i, got)
		}
	}
	for i := 1; i < n-2*indexThreshold; i += 2 {
		s.Delete("k" + strconv.Itoa(i))
	}
	if s.Len() > indexThreshold || s.rec.keyIndex() != nil {
		t.Fatalf("index kept with %d values", s.Len())
	}
	keys := s.Keys()
	for i, k := range keys {
		if s.Get(k) == nil {
			t.Fatalf("key %d %q lost after shrinking", i, k)
		}
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	exp := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	in := Snapshot{Values: []Entry{{"x", 1}, {"y", "two"}}, Flashes: []Entry{{"x", "f"}}, ExpiresAt: exp, Lifetime: time.Hour}
	out := NewRecord(in).Snapshot()
	if len(out.Values) != 2 || out.Values[0] != in.Values[0] || out.Values[1] != in.Values[1] ||
		len(out.Flashes) != 1 || out.Flashes[0] != in.Flashes[0] || !out.ExpiresAt.Equal(exp) || out.Lifetime != time.Hour {
		t.Fatalf("round trip changed the snapshot: %+v", out)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fakeClock is a settable clock for the memory database tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func fill(t *testing.T, db *MemoryDatabase, n int, exp time.Time) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		id, _ := NewID()
		ids[i] = id
		if err := db.Save(context.Background(), id, newRecord(exp.UnixNano())); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func TestSweeperRemovesExpiredOnTick(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	tick := make(chan time.Time)
	db := newMemoryDatabase(tick, WithMemoryClock(clock.Now))
	defer db.Close()
	fill(t, db, 300, clock.Now().Add(time.Minute))
	live := fill(t, db, 10, clock.Now().Add(time.Hour))
	clock.Advance(2 * time.Minute)
	tick <- time.Time{}
	tick <- time.Time{} // accepted only once the first sweep has finished
	if n := db.Len(); n != len(live) {
		t.Fatalf("after the sweep %d records remain, want %d", n, len(live))
	}
	for _, id := range live {
		if rec, _ := db.Load(context.Background(), id); rec == nil {
			t.Fatal("sweeper removed a live record")
		}
	}
}

func TestSweeperStopsOnClose(t *testing.T) {
	dbs := make([]*MemoryDatabase, 20)
	for i := range dbs {
		dbs[i] = NewMemoryDatabase(WithSweepInterval(time.Millisecond))
	}
	// Every sweeper is counted from its go statement on.
	during := runtime.NumGoroutine()
	for _, db := range dbs {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-db.done:
		default:
			t.Fatal("Close returned before the sweeper stopped")
		}
		db.Close() // idempotent
	}
	// The sweepers have returned; their goroutines disappear from the
	// count as soon as the runtime reaps them.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > during-len(dbs) {
		if time.Now().After(deadline) {
			t.Fatalf("goroutine leak: %d goroutines, %d with the 20 sweepers running", runtime.NumGoroutine(), during)
		}
		runtime.Gosched()
	}
	// SweepInterval < 0 starts no goroutine at all: no sweeper to wait for,
	// and no goroutine more than before (goroutines of earlier tests may
	// still be ending, so the count may drop, never rise).
	n := runtime.NumGoroutine()
	db := NewMemoryDatabase(WithSweepInterval(-1))
	if db.done != nil || runtime.NumGoroutine() > n {
		t.Fatal("a goroutine started with the sweeper disabled")
	}
	db.Close()
}

func TestMemoryCapEvicts(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	db := NewMemoryDatabase(WithMemoryClock(clock.Now), WithMaxSessions(512), WithShards(8), WithSweepInterval(-1))
	defer db.Close()
	fill(t, db, 5000, clock.Now().Add(time.Hour))
	if n := db.Len(); n > 512 {
		t.Fatalf("%d records stored, cap is 512", n)
	}
	// Expired records are evicted before live ones.
	clock.Advance(2 * time.Hour)
	live := fill(t, db, 200, clock.Now().Add(time.Hour))
	for _, id := range live {
		if rec, _ := db.Load(context.Background(), id); rec == nil {
			t.Fatal("a live record was evicted while expired ones remained")
		}
	}
}

// TestMemoryCapProbationFirst: a full shard evicts the oldest record that
// never came back, then (without any) a protected one.
func TestMemoryCapProbationFirst(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	db := NewMemoryDatabase(WithMemoryClock(clock.Now), WithMaxSessions(10), WithShards(1), WithSweepInterval(-1))
	defer db.Close()
	ids := fill(t, db, 10, clock.Now().Add(time.Hour))
	returning := ids[5:8]
	for _, id := range returning {
		if db.LoadAt(id, clock.Now()) == nil {
			t.Fatal("record missing before the cap was reached")
		}
	}
	// Each insertion evicts the oldest probation record, in insertion
	// order: ids[0], ids[1], ... skipping the returning ones.
	newer := fill(t, db, 1, clock.Now().Add(time.Hour))
	if rec, _ := db.Load(context.Background(), ids[0]); rec != nil {
		t.Fatal("the oldest probation record survived an insertion into a full shard")
	}
	if rec, _ := db.Load(context.Background(), ids[1]); rec == nil {
		t.Fatal("the second oldest probation record was evicted first")
	}
	// Loading ids[1] just promoted it: a flood of 50 now leaves the
	// returning records and ids[1], and evicts everything else.
	returning = append(returning, ids[1])
	fill(t, db, 50, clock.Now().Add(time.Hour))
	for _, id := range returning {
		if db.LoadAt(id, clock.Now()) == nil {
			t.Fatal("a returning record was evicted while once-used ones remained")
		}
	}
	if db.LoadAt(newer[0], clock.Now()) != nil {
		t.Fatal("a once-used record outlived 50 newer ones")
	}
	if n := db.Len(); n != 10 {
		t.Fatalf("%d records, want the cap 10", n)
	}
	// Only returning records left: the one closest to expiry goes.
	only := NewMemoryDatabase(WithMemoryClock(clock.Now), WithMaxSessions(4), WithShards(1), WithSweepInterval(-1))
	defer only.Close()
	var prot []string
	for i := 0; i < 4; i++ {
		prot = append(prot, fill(t, only, 1, clock.Now().Add(time.Duration(i+1)*time.Hour))...)
		only.LoadAt(prot[i], clock.Now())
	}
	fill(t, only, 1, clock.Now().Add(time.Hour))
	if only.Len() != 4 || only.LoadAt(prot[0], clock.Now()) != nil {
		t.Fatal("with no probation record, the protected record closest to expiry was not the victim")
	}
}

// TestCookieHeaderExactSize: the Set-Cookie value is built in one
// allocation of exactly its length, and a response without a Set-Cookie
// gets it with one more (the header's slice).
func TestCookieHeaderExactSize(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	id, _ := NewID()
	tests := []struct {
		name   string
		opts   []Option
		tls    bool
		maxAge time.Duration
	}{
		{"browser session", nil, false, 0},
		{"over TLS", nil, true, 0},
		{"persistent", nil, false, 30 * 24 * time.Hour},
		{"sub-second", nil, false, time.Millisecond},
		{"deletion", nil, false, -1},
		{"custom attributes", []Option{WithPath("/app"), WithDomain("example.com"), WithSecure(), WithSameSite(http.SameSiteStrictMode)}, true, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := MustNew(append(tt.opts, WithDatabase(NewMemoryDatabase(WithSweepInterval(-1))))...)
			v := m.cookieHeader(tt.tls, id, tt.maxAge, now)
			if n := m.cookieSize(tt.tls, id, tt.maxAge); n != len(v) {
				t.Fatalf("sized %d bytes for %q (%d)", n, v, len(v))
			}
			if a := testing.AllocsPerRun(50, func() { m.cookieHeader(tt.tls, id, tt.maxAge, now) }); a != 1 {
				t.Fatalf("%v allocations to build the value", a)
			}
			h := http.Header{}
			if a := testing.AllocsPerRun(50, func() { delete(h, "Set-Cookie"); m.setCookie(h, tt.tls, id, tt.maxAge, now) }); a != 2 {
				t.Fatalf("%v allocations to set the header on a response without one, want 2", a)
			}
			if got := h["Set-Cookie"]; len(got) != 1 || got[0] != v {
				t.Fatalf("header %q, want [%q]", got, v)
			}
		})
	}
}

// TestProbationQueueBounded: the probation queue neither grows with a
// steady flood (its consumed front is reclaimed) nor keeps the IDs of
// records that left probation (they are compacted away).
func TestProbationQueueBounded(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	const perShard = 64
	db := NewMemoryDatabase(WithMemoryClock(clock.Now), WithMaxSessions(perShard), WithShards(1), WithSweepInterval(-1))
	defer db.Close()
	s := &db.shards[0]
	bound := func(what string) {
		t.Helper()
		if q := cap(s.queue); q > 4*perShard+64 {
			t.Fatalf("%s: queue capacity %d for %d sessions", what, q, len(s.m))
		}
		n := 0
		for _, rec := range s.m {
			if rec.flags.Load()&flagProtected == 0 {
				n++
			}
		}
		if n != s.probation {
			t.Fatalf("%s: %d probation records counted, %d in the map", what, s.probation, n)
		}
	}
	fill(t, db, 100*perShard, clock.Now().Add(time.Hour)) // a flood of 100x the cap
	bound("after a flood")
	for id := range s.m { // every session comes back
		db.LoadAt(id, clock.Now())
	}
	bound("after promotions")
	only := NewMemoryDatabase(WithMemoryClock(clock.Now), WithMaxSessions(-1), WithShards(1), WithSweepInterval(-1))
	defer only.Close()
	for i := 0; i < 50; i++ { // below any cap: promoted IDs must not pile up
		for _, id := range fill(t, only, 20, clock.Now().Add(time.Hour)) {
			only.LoadAt(id, clock.Now())
		}
	}
	if q := len(only.shards[0].queue) - only.shards[0].front; q > 64 {
		t.Fatalf("%d queued IDs for %d probation records", q, only.shards[0].probation)
	}
}

func TestManagerCloseStopsOwnSweeperOnly(t *testing.T) {
	m := MustNew()
	own := m.Database().(*MemoryDatabase)
	m.Close()
	select {
	case <-own.done:
	default:
		t.Fatal("Manager.Close left its own store's sweeper running")
	}
	given := NewMemoryDatabase()
	defer given.Close()
	MustNew(WithDatabase(given)).Close()
	select {
	case <-given.done:
		t.Fatal("Manager.Close closed a Database it was given")
	default:
	}
}

// TestShardsFillEvenly: IDs made by NewID pick their shard by their own
// bits and spread evenly; other strings (IDs of a Database's caller, of
// any length and alphabet) still find their records.
func TestShardsFillEvenly(t *testing.T) {
	const shards, per = 128, 100
	db := NewMemoryDatabase(WithShards(shards), WithMaxSessions(-1), WithSweepInterval(-1))
	defer db.Close()
	exp := time.Now().Add(time.Hour).UnixNano()
	for i := 0; i < shards*per; i++ {
		id, err := NewID()
		if err != nil {
			t.Fatal(err)
		}
		db.insertNew(id, newRecord(exp))
	}
	for i := range db.shards {
		// The mean is 100 with a standard deviation of 10: outside
		// [40, 200] is a skew, not chance.
		if n := len(db.shards[i].m); n < 40 || n > 200 {
			t.Fatalf("shard %d holds %d of %d records", i, n, shards*per)
		}
	}
	for _, id := range []string{"", "a", "user-1", "an ID of twenty-three!"} {
		if err := db.Save(context.Background(), id, newRecord(exp)); err != nil {
			t.Fatal(err)
		}
		if rec, _ := db.Load(context.Background(), id); rec == nil {
			t.Fatalf("the record saved under %q was not found", id)
		}
	}
}

// TestInsertNewOnce: concurrent first writes of one new session store its
// record once (one map entry, one probation record, one queued ID), and a
// record destroyed before its insertion is not stored.
func TestInsertNewOnce(t *testing.T) {
	db := NewMemoryDatabase(WithShards(1), WithSweepInterval(-1))
	defer db.Close()
	id, _ := NewID()
	rec := newRecord(time.Now().Add(time.Hour).UnixNano())
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db.insertNew(id, rec)
		}()
	}
	wg.Wait()
	s := &db.shards[0]
	if len(s.m) != 1 || s.probation != 1 || len(s.queue)-s.front != 1 {
		t.Fatalf("%d records, %d in probation, %d queued; want 1 each", len(s.m), s.probation, len(s.queue)-s.front)
	}
	if got := db.LoadAt(id, time.Now()); got != rec {
		t.Fatal("the inserted record is not the one loaded")
	}
	dead, _ := NewID()
	destroyed := newRecord(time.Now().Add(time.Hour).UnixNano())
	destroyed.markDestroyed()
	db.insertNew(dead, destroyed)
	if db.LoadAt(dead, time.Now()) != nil || len(s.m) != 1 {
		t.Fatal("a record destroyed before its insertion was stored")
	}
}

// TestEncodeIDMatchesBase64: encodeID is unpadded base64url, byte for byte
// what encoding/base64 makes, and its results are valid IDs.
func TestEncodeIDMatchesBase64(t *testing.T) {
	var zero, ones, seq [idBytes]byte
	for i := range ones {
		ones[i] = 0xff
		seq[i] = byte(i * 17)
	}
	cases := [][idBytes]byte{zero, ones, seq}
	for i := 0; i < 1000; i++ {
		var raw [idBytes]byte
		if _, err := crand.Read(raw[:]); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, raw)
	}
	for _, raw := range cases {
		got, want := encodeID(&raw), base64.RawURLEncoding.EncodeToString(raw[:])
		if got != want {
			t.Fatalf("encodeID(%x) = %q, want %q", raw, got, want)
		}
		if !ValidID(got) {
			t.Fatalf("encodeID(%x) = %q is not a valid ID", raw, got)
		}
	}
}
