// The album store: an in-memory map guarded by a mutex, because handlers
// run concurrently, one goroutine per connection. Albums are returned by
// value so callers never share memory with the store.

package main

import (
	"sort"
	"sync"
)

// Album is the resource the API manages.
type Album struct {
	ID     int    `json:"id"`
	Title  string `json:"title"`
	Artist string `json:"artist"`
	Year   int    `json:"year"`
}

// store keeps albums by ID.
type store struct {
	mu     sync.RWMutex
	albums map[int]Album
	nextID int
}

func newStore(seed ...Album) *store {
	s := &store{albums: make(map[int]Album), nextID: 1}
	for _, a := range seed {
		s.create(a)
	}
	return s
}

// list returns every album ordered by ID.
func (s *store) list() []Album {
	s.mu.RLock()
	out := make([]Album, 0, len(s.albums))
	for _, a := range s.albums {
		out = append(out, a)
	}
	s.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// get returns the album with id and whether it exists.
func (s *store) get(id int) (Album, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, ok := s.albums[id]
	return a, ok
}

// create stores a with a new ID and returns it.
func (s *store) create(a Album) Album {
	s.mu.Lock()
	defer s.mu.Unlock()
	a.ID = s.nextID
	s.nextID++
	s.albums[a.ID] = a
	return a
}

// update replaces the album with id, reporting whether it existed.
func (s *store) update(id int, a Album) (Album, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.albums[id]; !ok {
		return Album{}, false
	}
	a.ID = id
	s.albums[id] = a
	return a, true
}

// remove deletes the album with id, reporting whether it existed.
func (s *store) remove(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.albums[id]; !ok {
		return false
	}
	delete(s.albums, id)
	return true
}
