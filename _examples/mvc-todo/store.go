// The todo store: every user's list in memory, behind one mutex (handlers
// run concurrently). IDs are unique across users, and every operation
// takes the owner, so one user can never read or change another's todos
// by guessing an ID.

package main

import (
	"sync"
)

// Todo is one item of a user's list.
type Todo struct {
	ID    int
	Title string
	Done  bool
}

// TodoStore keeps the lists by user name.
type TodoStore struct {
	mu     sync.Mutex
	lists  map[string][]Todo
	nextID int
}

// NewTodoStore returns an empty store.
func NewTodoStore() *TodoStore {
	return &TodoStore{lists: map[string][]Todo{}, nextID: 1}
}

// List returns a copy of owner's todos in the order they were added.
func (s *TodoStore) List(owner string) []Todo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Todo(nil), s.lists[owner]...)
}

// Add appends a todo to owner's list and returns it.
func (s *TodoStore) Add(owner, title string) Todo {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := Todo{ID: s.nextID, Title: title}
	s.nextID++
	s.lists[owner] = append(s.lists[owner], t)
	return t
}

// Toggle flips the Done state of owner's todo id and returns it; false
// means owner has no such todo.
func (s *TodoStore) Toggle(owner string, id int) (Todo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.lists[owner]
	for i := range list {
		if list[i].ID == id {
			list[i].Done = !list[i].Done
			return list[i], true
		}
	}
	return Todo{}, false
}

// Delete removes owner's todo id; false means owner has no such todo.
func (s *TodoStore) Delete(owner string, id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.lists[owner]
	for i := range list {
		if list[i].ID == id {
			s.lists[owner] = append(list[:i:i], list[i+1:]...)
			return true
		}
	}
	return false
}
