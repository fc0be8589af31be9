// The chat room: who is in it, and the broadcast.
//
// Each member has a buffered queue of messages to send, emptied by its
// own writer goroutine. A broadcast puts the message in every queue
// without waiting; a member whose queue is full (a client that does not
// read) is dropped from the room, so one slow client never delays the
// others. Leaving, being dropped and the room closing all end a member
// the same way: it is removed from the room and its queue is closed,
// under the room's lock, so the queue is closed once.

package main

import (
	"sync"

	"github.com/coder/websocket"
)

// queueLen is how many messages a member may have waiting.
const queueLen = 32

// room is a set of members and what is sent to all of them.
type room struct {
	mu      sync.Mutex
	members map[*member]struct{}
	closed  bool
	wg      sync.WaitGroup // the members' handlers
}

// member is one connection in the room.
type member struct {
	queue chan []byte
	// why the member was ended, for its close frame (under room.mu)
	code   websocket.StatusCode
	reason string
}

func newRoom() *room { return &room{members: make(map[*member]struct{})} }

// join adds a member, or returns nil when the room is closed.
func (r *room) join() *member {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	m := &member{queue: make(chan []byte, queueLen), code: websocket.StatusNormalClosure}
	r.members[m] = struct{}{}
	r.wg.Add(1)
	return m
}

// end removes m from the room and closes its queue, once; r.mu is held.
func (r *room) end(m *member, code websocket.StatusCode, reason string) {
	if _, ok := r.members[m]; !ok {
		return
	}
	delete(r.members, m)
	m.code, m.reason = code, reason
	close(m.queue)
}

// leave ends m: its client left.
func (r *room) leave(m *member) {
	r.mu.Lock()
	r.end(m, websocket.StatusNormalClosure, "")
	r.mu.Unlock()
}

// broadcast queues msg for every member, dropping those that are full.
func (r *room) broadcast(msg []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for m := range r.members {
		select {
		case m.queue <- msg:
		default:
			r.end(m, websocket.StatusPolicyViolation, "too slow: messages were not read")
		}
	}
}

// close ends every member with "going away" and waits for their handlers
// to return; no one joins afterwards.
func (r *room) close() {
	r.mu.Lock()
	r.closed = true
	for m := range r.members {
		r.end(m, websocket.StatusGoingAway, "the server is shutting down")
	}
	r.mu.Unlock()
	r.wg.Wait()
}

// closeStatus is why m was ended.
func (r *room) closeStatus(m *member) (websocket.StatusCode, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return m.code, m.reason
}
