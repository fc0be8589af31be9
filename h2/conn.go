// The frame loop of one connection.
//
// serve reads the client preface, sends the server's SETTINGS, then reads
// frames with the Framer (ReadMetaHeaders assembles HEADERS+CONTINUATION,
// decodes HPACK under the header list limit and validates field names and
// pseudo-headers) and dispatches each in this goroutine: no channel, no
// per-frame handoff. State shared with handler goroutines (windows, the
// stream table, the output buffer) is under c.mu. A StreamError resets that
// stream; a ConnectionError sends GOAWAY and ends the connection.
//
// Timeouts without a timer per frame: a frame (or the preface) whose
// bytes are all in the read buffer is parsed without any deadline, and
// only one that is not (it is still arriving) is read under the frame
// deadline. Between frames the reader waits with no deadline. The
// handshake, idle and shutdown events come from timers and the shutdown
// hook as bits in c.sigs; when the reader is waiting between frames
// (c.readWaiting) the sender also sets a read deadline in the past, which
// wakes it without losing a byte (the wait is a bufio Peek), and the
// reader clears it. The handshake check judges what has arrived: with
// input still buffered it waits until the reader has parsed it, so a
// server slowed down (a loaded machine, valgrind) does not cut a client
// whose preface, SETTINGS and ACK came in time.
// Graceful end (shutdown or idle): GOAWAY NO_ERROR with the last accepted
// stream, later streams refused, the connection closes when no handler
// runs.
//
// Attack bounds: handlers running at once are limited to
// MAX_CONCURRENT_STREAMS, counted until a handler returns (not until the
// client resets the stream), and streams waiting for a slot to 4x that,
// beyond which the connection ends with ENHANCE_YOUR_CALM (Rapid Reset);
// a header block is bounded by the Framer at twice the header list size
// (CONTINUATION flood) and a decoded list beyond it is answered 431 (HPACK
// bomb); PING and SETTINGS acks and resets waiting in the output buffer are
// bounded (floods from a client that does not read); a trickled frame is
// cut by the frame timeout (slowloris).

package h2

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const (
	preface        = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
	maxOutBuffered = 1 << 20 // handlers wait while the output buffer holds more
	maxWindow      = 1<<31 - 1
)

var errClosed = errors.New("h2: stream closed")

// Events for the reader goroutine, bits of conn.sigs.
const (
	sigShutdown  = 1 << iota // graceful end: GOAWAY, open streams finish, close
	sigIdle                  // the idle timer fired
	sigHandshake             // the handshake timer fired
	sigDrained               // the last handler returned while draining
)

// wakeUp is a read deadline in the past: it ends the reader's wait at once.
var wakeUp = time.Unix(1, 0)

type conn struct {
	srv *Server
	nc  net.Conn
	h   http.Handler
	br  *bufio.Reader
	fr  *http2.Framer
	ctx context.Context
	tls *tls.Conn

	mu           sync.Mutex
	cond         sync.Cond // flow control and output buffer waits
	out          []byte    // frames not yet written
	flushPending bool
	control      int // control frames in out
	closed       bool
	enc          *hpack.Encoder
	hbuf         bytes.Buffer
	sendWindow   int64 // connection send window
	peerInitial  int64 // peer's SETTINGS_INITIAL_WINDOW_SIZE
	peerMaxFrame uint32
	streams      map[uint32]*stream
	running      int       // handlers running
	waiting      []*stream // streams waiting for a handler slot
	inflow       int64     // connection receive window left to the peer
	unacked      int64     // connection bytes consumed, not yet returned with WINDOW_UPDATE
	dateSec      int64
	dateStr      string
	readWaiting  bool      // the reader waits for input between frames
	wakeSet      bool      // a wakeUp deadline is set
	draining     bool      // GOAWAY NO_ERROR sent: no new streams
	idleSince    time.Time // when the last handler returned
	idleTimeout  time.Duration
	idleTimer    *time.Timer
	handshakeTmr *time.Timer

	sigs atomic.Uint32

	flushCh  chan struct{}
	stopCh   chan struct{}
	flushEnd chan struct{}

	// reader goroutine only
	maxClientID   uint32
	goAwayID      uint32 // the last stream ID of the GOAWAY sent
	sawPreface    bool   // net/http read it (prior-knowledge h2c)
	sawSettings   bool
	settingsAcked bool
	handshakeLook bool // the handshake timer fired once with nothing buffered
	goAwayRecv    bool
	goAwaySent    bool
}

func newConn(s *Server, nc net.Conn, h http.Handler, idle time.Duration) *conn {
	c := &conn{
		srv: s, nc: nc, h: h, idleTimeout: idle,
		br:           bufio.NewReaderSize(nc, 16<<10),
		sendWindow:   65535,
		peerInitial:  65535,
		peerMaxFrame: 16384,
		streams:      make(map[uint32]*stream),
		inflow:       int64(s.initialWindow),
		flushCh:      make(chan struct{}, 1),
		stopCh:       make(chan struct{}),
		flushEnd:     make(chan struct{}),
	}
	c.cond.L = &c.mu
	c.tls, _ = nc.(*tls.Conn)
	c.fr = http2.NewFramer(outWriter{c}, c.br)
	c.fr.SetMaxReadFrameSize(s.maxFrameSize)
	c.fr.MaxHeaderListSize = s.maxHeaderList
	c.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	c.fr.ReadMetaHeaders.SetMaxStringLength(int(s.maxHeaderList))
	c.enc = hpack.NewEncoder(&c.hbuf)
	return c
}

// outWriter appends the Framer's frames to c.out; it is called with c.mu held.
type outWriter struct{ c *conn }

func (w outWriter) Write(p []byte) (int, error) {
	w.c.out = append(w.c.out, p...)
	return len(p), nil
}

// kick makes the flusher write c.out soon; c.mu is held.
func (c *conn) kick() {
	if !c.flushPending {
		c.flushPending = true
		select {
		case c.flushCh <- struct{}{}:
		default:
		}
	}
}

// flushLoop is the one writer of the connection: it swaps the output
// buffer out under the lock and writes it without the lock, so frames of
// other streams gather for the next write meanwhile.
func (c *conn) flushLoop() {
	defer close(c.flushEnd)
	var spare []byte
	for {
		stop := false
		select {
		case <-c.flushCh:
		case <-c.stopCh:
			stop = true
		}
		c.mu.Lock()
		buf := c.out
		c.out = spare[:0]
		c.flushPending = false
		c.control = 0
		c.cond.Broadcast()
		c.mu.Unlock()
		if len(buf) > 0 {
			if _, err := c.nc.Write(buf); err != nil {
				c.mu.Lock()
				c.closed = true
				c.cond.Broadcast()
				c.mu.Unlock()
				c.nc.Close()
				return
			}
		}
		if stop {
			return
		}
		spare = buf
	}
}

func (c *conn) serve() {
	base := context.Background()
	if bc, ok := c.h.(interface{ BaseContext() context.Context }); ok {
		base = bc.BaseContext() // net/http's, with http.ServerContextKey
	}
	ctx, cancel := context.WithCancel(base)
	c.ctx = ctx
	defer cancel()
	if c.tls != nil && !c.tls.ConnectionState().HandshakeComplete { // ServeConn on a fresh TLS connection
		c.nc.SetDeadline(time.Now().Add(c.srv.handshakeTimeout))
		if err := c.tls.HandshakeContext(ctx); err != nil {
			c.nc.Close()
			return
		}
		c.nc.SetDeadline(time.Time{})
	}
	c.mu.Lock()
	c.idleSince = time.Now()
	c.idleTimer = time.AfterFunc(c.idleTimeout, c.onIdleTimer)
	c.handshakeTmr = time.AfterFunc(c.srv.handshakeTimeout, func() { c.signal(sigHandshake) })
	c.mu.Unlock()
	go c.flushLoop()
	code, hard := c.readLoop()
	c.mu.Lock()
	c.idleTimer.Stop()
	c.handshakeTmr.Stop()
	if hard {
		last := c.maxClientID
		if c.goAwaySent {
			last = c.goAwayID
		}
		c.fr.WriteGoAway(last, code, nil)
	}
	c.closed = true
	for _, st := range c.streams {
		st.abort(errClosed)
	}
	for _, st := range c.waiting {
		st.abort(errClosed)
	}
	c.waiting = nil
	c.cond.Broadcast()
	c.mu.Unlock()
	// A client that does not read must not hold the connection open: the
	// last write (GOAWAY) gets a second.
	c.nc.SetWriteDeadline(time.Now().Add(time.Second))
	close(c.stopCh)
	<-c.flushEnd
	if hard || c.goAwaySent {
		// Let the client read the GOAWAY before the close (a close with
		// unread input sends a TCP reset that may drop it).
		if cw, ok := c.nc.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		c.nc.SetReadDeadline(time.Now().Add(time.Second))
		io.Copy(io.Discard, io.LimitReader(c.nc, 1<<20))
	}
	c.nc.Close()
}

// signal hands the reader the events in bits.
func (c *conn) signal(bits uint32) {
	c.mu.Lock()
	c.signalLocked(bits)
	c.mu.Unlock()
}

// signalLocked is signal with c.mu held.
func (c *conn) signalLocked(bits uint32) {
	c.sigs.Or(bits)
	if c.readWaiting && !c.wakeSet && !c.closed {
		c.nc.SetReadDeadline(wakeUp)
		c.wakeSet = true
	}
}

// onIdleTimer runs when the idle timer fires: with no handler running for
// the idle timeout it tells the reader, otherwise it rearms.
func (c *conn) onIdleTimer() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if c.activeLocked() {
		c.idleTimer.Reset(c.idleTimeout)
		return
	}
	if left := c.idleTimeout - time.Since(c.idleSince); left > 0 {
		c.idleTimer.Reset(left)
		return
	}
	c.signalLocked(sigIdle)
}

// activeLocked reports whether a stream is being served; c.mu is held.
func (c *conn) activeLocked() bool {
	return c.running > 0 || len(c.waiting) > 0
}

// waitInput waits until input is buffered or an event is signalled.
func (c *conn) waitInput() error {
	c.mu.Lock()
	if c.sigs.Load() != 0 {
		c.mu.Unlock()
		return nil
	}
	c.readWaiting = true
	c.mu.Unlock()
	_, err := c.br.Peek(1)
	c.mu.Lock()
	c.readWaiting = false
	if c.wakeSet {
		c.wakeSet = false
		c.nc.SetReadDeadline(time.Time{})
	}
	c.mu.Unlock()
	return err
}

// frameBuffered reports whether the next frame (or header block) is
// entirely in the read buffer, so reading it cannot block.
func (c *conn) frameBuffered() bool {
	n := c.br.Buffered()
	if n < 9 {
		return false
	}
	h, _ := c.br.Peek(9)
	length := int(h[0])<<16 | int(h[1])<<8 | int(h[2])
	if t := http2.FrameType(h[3]); (t == http2.FrameHeaders || t == http2.FrameContinuation) && http2.Flags(h[4])&http2.FlagHeadersEndHeaders == 0 {
		return false // CONTINUATION frames follow
	}
	return n >= 9+length
}

// onSignals handles the events in bits; end reports that the connection
// ends (with GOAWAY code when hard).
func (c *conn) onSignals(bits uint32) (code http2.ErrCode, hard, end bool) {
	if bits&sigHandshake != 0 && !c.settingsAcked {
		switch {
		case c.br.Buffered() > 0:
			// Judge what has arrived, not how fast this server reads it:
			// the next round, after the buffered input.
			c.sigs.Or(sigHandshake)
		case !c.handshakeLook:
			// Nothing buffered: one more look at the socket, in case
			// input came while this goroutine was not running.
			c.handshakeLook = true
			c.handshakeTmr.Reset(c.srv.handshakeTimeout / 8)
		case !c.sawSettings:
			return http2.ErrCodeNo, false, true // no preface or SETTINGS: close
		default:
			return http2.ErrCodeSettingsTimeout, true, true
		}
	}
	if bits&sigShutdown != 0 {
		c.startDrain()
	}
	if bits&sigIdle != 0 {
		c.mu.Lock()
		active := c.activeLocked()
		if active {
			c.idleTimer.Reset(c.idleTimeout)
		}
		c.mu.Unlock()
		if !active {
			c.startDrain()
		}
	}
	return 0, false, c.drained()
}

// startDrain sends GOAWAY NO_ERROR with the last stream accepted; later
// streams are refused.
func (c *conn) startDrain() {
	if c.goAwaySent {
		return
	}
	c.goAwaySent, c.goAwayID = true, c.maxClientID
	c.mu.Lock()
	c.draining = true
	c.fr.WriteGoAway(c.goAwayID, http2.ErrCodeNo, nil)
	c.kick()
	c.mu.Unlock()
}

// drained reports whether the connection drains and no handler runs.
func (c *conn) drained() bool {
	if !c.goAwaySent {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.activeLocked()
}

// readLoop runs until the connection ends; it returns the GOAWAY code and
// whether one must be sent.
func (c *conn) readLoop() (http2.ErrCode, bool) {
	c.mu.Lock()
	c.fr.WriteSettings(
		http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: c.srv.maxStreams},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: uint32(c.srv.initialWindow)},
		http2.Setting{ID: http2.SettingMaxFrameSize, Val: c.srv.maxFrameSize},
		http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: c.srv.maxHeaderList},
		http2.Setting{ID: http2.SettingEnablePush, Val: 0},
	)
	if c.srv.initialWindow > 65535 {
		c.fr.WriteWindowUpdate(0, uint32(c.srv.initialWindow-65535))
	}
	c.kick()
	c.mu.Unlock()
	for {
		if c.br.Buffered() == 0 {
			if err := c.waitInput(); err != nil && c.sigs.Load() == 0 {
				return http2.ErrCodeNo, false // the connection ended or broke
			}
		}
		if c.sigs.Load() != 0 {
			if code, hard, end := c.onSignals(c.sigs.Swap(0)); end {
				return code, hard
			}
			if c.br.Buffered() == 0 {
				continue
			}
		}
		if !c.sawPreface {
			if code, hard := c.readPreface(); code != 0 || !c.sawPreface {
				return code, hard
			}
			continue
		}
		timed := !c.frameBuffered()
		if timed {
			c.nc.SetReadDeadline(time.Now().Add(c.srv.frameTimeout))
		}
		f, err := c.fr.ReadFrame()
		if timed {
			c.nc.SetReadDeadline(time.Time{})
		}
		if err != nil {
			var se http2.StreamError
			var ce http2.ConnectionError
			switch {
			case errors.As(err, &se):
				c.noteStreamID(se.StreamID)
				c.resetStream(se.StreamID, se.Code)
				continue
			case errors.As(err, &ce):
				return http2.ErrCode(ce), true
			case errors.Is(err, http2.ErrFrameTooLarge):
				return http2.ErrCodeFrameSize, true
			}
			return http2.ErrCodeNo, false // ended, broke, or a frame trickled past the timeout
		}
		if !c.sawSettings {
			sf, ok := f.(*http2.SettingsFrame)
			if !ok || sf.IsAck() {
				return http2.ErrCodeProtocol, true
			}
			c.sawSettings = true
		}
		if code, bad := c.dispatch(f); bad {
			return code, true
		}
	}
}

// readPreface reads the client preface (under the frame timeout when it
// is not all buffered); a wrong one is a PROTOCOL_ERROR, a missing one
// ends the connection (sawPreface stays false).
func (c *conn) readPreface() (http2.ErrCode, bool) {
	var pre [len(preface)]byte
	timed := c.br.Buffered() < len(pre)
	if timed {
		c.nc.SetReadDeadline(time.Now().Add(c.srv.frameTimeout))
	}
	_, err := io.ReadFull(c.br, pre[:])
	if timed {
		c.nc.SetReadDeadline(time.Time{})
	}
	switch {
	case err != nil:
		return 0, false
	case string(pre[:]) != preface:
		return http2.ErrCodeProtocol, true
	}
	c.sawPreface = true
	return 0, false
}

// noteStreamID makes a client stream ID that failed in the Framer count as
// used, so later frames on it see a closed stream.
func (c *conn) noteStreamID(id uint32) {
	if id%2 == 1 && id > c.maxClientID {
		c.maxClientID = id
	}
}

// dispatch handles one frame; bad reports a connection error with code.
func (c *conn) dispatch(f http2.Frame) (code http2.ErrCode, bad bool) {
	switch f := f.(type) {
	case *http2.MetaHeadersFrame:
		return c.onHeaders(f)
	case *http2.DataFrame:
		return c.onData(f)
	case *http2.SettingsFrame:
		return c.onSettings(f)
	case *http2.WindowUpdateFrame:
		return c.onWindowUpdate(f)
	case *http2.PingFrame:
		if f.IsAck() {
			return 0, false
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.fr.WritePing(true, f.Data)
		return c.controlQueued()
	case *http2.RSTStreamFrame:
		if c.idle(f.StreamID) {
			return http2.ErrCodeProtocol, true
		}
		c.mu.Lock()
		if st := c.streams[f.StreamID]; st != nil {
			c.closeStream(st, errors.New("h2: stream reset by the client"))
		}
		c.mu.Unlock()
	case *http2.PriorityFrame:
		if f.StreamDep == f.StreamID {
			c.resetStream(f.StreamID, http2.ErrCodeProtocol)
		}
	case *http2.GoAwayFrame:
		c.goAwayRecv = true
	case *http2.PushPromiseFrame:
		return http2.ErrCodeProtocol, true // clients never push
	case *http2.ContinuationFrame:
		return http2.ErrCodeProtocol, true // only after HEADERS, which ReadMetaHeaders consumes
	}
	return 0, false
}

// controlQueued counts a control frame just written; c.mu is held.
func (c *conn) controlQueued() (http2.ErrCode, bool) {
	c.control++
	c.kick()
	if c.control > c.srv.maxControl {
		return http2.ErrCodeEnhanceYourCalm, true
	}
	return 0, false
}

// idle reports whether id names a stream the client has not opened yet.
func (c *conn) idle(id uint32) bool {
	return id%2 == 1 && id > c.maxClientID || id%2 == 0 && id != 0
}

// resetStream sends RST_STREAM and forgets the stream.
func (c *conn) resetStream(id uint32, code http2.ErrCode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.streams[id]; st != nil {
		c.closeStream(st, errors.New("h2: stream reset: "+code.String()))
	}
	c.fr.WriteRSTStream(id, code)
	c.controlQueued()
}

// closeStream ends st for both sides; c.mu is held.
func (c *conn) closeStream(st *stream, err error) {
	if c.streams[st.id] == st {
		delete(c.streams, st.id)
	}
	st.abort(err)
	c.cond.Broadcast()
}

func (c *conn) onHeaders(f *http2.MetaHeadersFrame) (http2.ErrCode, bool) {
	id := f.StreamID
	if id%2 == 0 {
		return http2.ErrCodeProtocol, true
	}
	if f.HasPriority() && f.Priority.StreamDep == id {
		c.noteStreamID(id)
		c.resetStream(id, http2.ErrCodeProtocol)
		return 0, false
	}
	if id <= c.maxClientID {
		c.mu.Lock()
		st := c.streams[id]
		closed := st == nil || st.remoteDone
		c.mu.Unlock()
		if closed {
			return http2.ErrCodeStreamClosed, true
		}
		return c.onTrailers(st, f)
	}
	c.maxClientID = id
	if c.goAwayRecv {
		return 0, false
	}
	if c.goAwaySent { // after our GOAWAY: not processed, the client may retry it
		c.mu.Lock()
		defer c.mu.Unlock()
		c.fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
		return c.controlQueued()
	}
	if f.Truncated {
		c.answer431(id)
		return 0, false
	}
	st, err := c.newStream(f)
	if err != nil {
		c.resetStream(id, http2.ErrCodeProtocol)
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.streams) >= int(c.srv.maxStreams) {
		c.fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
		return c.controlQueued()
	}
	c.streams[id] = st
	if c.running < int(c.srv.maxStreams) {
		c.running++
		go c.runHandler(st)
		return 0, false
	}
	c.waiting = append(c.waiting, st)
	if len(c.waiting) > c.srv.maxPendingOpen {
		return http2.ErrCodeEnhanceYourCalm, true
	}
	return 0, false
}

// answer431 answers a request whose header list is over the limit.
func (c *conn) answer431(id uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hbuf.Reset()
	c.enc.WriteField(hpack.HeaderField{Name: ":status", Value: "431"})
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: c.hbuf.Bytes(), EndHeaders: true, EndStream: true})
	c.fr.WriteRSTStream(id, http2.ErrCodeNo) // the rest of its body is not wanted
	c.kick()
}

func (c *conn) onTrailers(st *stream, f *http2.MetaHeadersFrame) (http2.ErrCode, bool) {
	if !f.StreamEnded() || len(f.PseudoFields()) > 0 {
		c.resetStream(st.id, http2.ErrCodeProtocol)
		return 0, false
	}
	tr := make(http.Header)
	for _, hf := range f.RegularFields() {
		key := canonicalKey(hf.Name)
		tr[key] = append(tr[key], hf.Value)
	}
	if st.contentLength >= 0 && st.received != st.contentLength {
		c.resetStream(st.id, http2.ErrCodeProtocol)
		return 0, false
	}
	st.body.closeWithTrailer(tr)
	c.mu.Lock()
	c.remoteEnded(st)
	c.mu.Unlock()
	return 0, false
}

// remoteEnded marks the client's side of st closed; c.mu is held.
func (c *conn) remoteEnded(st *stream) {
	st.remoteDone = true
	if st.localDone {
		delete(c.streams, st.id)
	}
}

func (c *conn) onData(f *http2.DataFrame) (http2.ErrCode, bool) {
	id := f.StreamID
	if c.idle(id) || id == 0 {
		return http2.ErrCodeProtocol, true
	}
	n := int64(f.Length)
	c.mu.Lock()
	if n > c.inflow {
		c.mu.Unlock()
		return http2.ErrCodeFlowControl, true
	}
	c.inflow -= n
	st := c.streams[id]
	if st == nil || st.remoteDone {
		c.returnConnLocked(n)
		c.mu.Unlock()
		c.resetStream(id, http2.ErrCodeStreamClosed)
		return 0, false
	}
	if n > st.inflow {
		c.returnConnLocked(n)
		c.mu.Unlock()
		c.resetStream(id, http2.ErrCodeFlowControl)
		return 0, false
	}
	st.inflow -= n
	c.mu.Unlock()
	data := f.Data()
	st.received += int64(len(data))
	if st.contentLength >= 0 && (st.received > st.contentLength || f.StreamEnded() && st.received != st.contentLength) {
		c.giveBack(n)
		c.resetStream(id, http2.ErrCodeProtocol)
		return 0, false
	}
	if pad := n - int64(len(data)); pad > 0 {
		c.giveBackStream(st, pad)
	}
	if len(data) > 0 && !st.body.write(data) {
		c.giveBackStream(st, int64(len(data))) // the handler no longer reads
	}
	if f.StreamEnded() {
		st.body.closeWithTrailer(nil)
		c.mu.Lock()
		c.remoteEnded(st)
		c.mu.Unlock()
	}
	return 0, false
}

// giveBack returns n bytes of the connection window to the client.
func (c *conn) giveBack(n int64) {
	c.mu.Lock()
	c.returnConnLocked(n)
	c.mu.Unlock()
}

// returnConnLocked credits n consumed bytes to the connection window and
// sends WINDOW_UPDATE once half the window is due; c.mu is held.
func (c *conn) returnConnLocked(n int64) {
	c.unacked += n
	if c.unacked >= int64(c.srv.initialWindow)/2 && !c.closed {
		c.fr.WriteWindowUpdate(0, uint32(c.unacked))
		c.inflow += c.unacked
		c.unacked = 0
		c.kick()
	}
}

// giveBackStream returns n consumed bytes of st to both windows.
func (c *conn) giveBackStream(st *stream, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.returnConnLocked(n)
	if st.remoteDone || st.aborted != nil {
		return
	}
	st.unacked += n
	if st.unacked >= int64(c.srv.initialWindow)/2 && !c.closed {
		c.fr.WriteWindowUpdate(st.id, uint32(st.unacked))
		st.inflow += st.unacked
		st.unacked = 0
		c.kick()
	}
}

func (c *conn) onSettings(f *http2.SettingsFrame) (http2.ErrCode, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.IsAck() { // we send one SETTINGS frame: this acknowledges it
		if !c.settingsAcked {
			c.settingsAcked = true
			c.handshakeTmr.Stop() // the client's SETTINGS came first
		}
		return 0, false
	}
	var code http2.ErrCode
	bad := false
	f.ForeachSetting(func(s http2.Setting) error {
		if err := s.Valid(); err != nil {
			var ce http2.ConnectionError
			if errors.As(err, &ce) {
				code, bad = http2.ErrCode(ce), true
			} else {
				code, bad = http2.ErrCodeProtocol, true
			}
			return err
		}
		switch s.ID {
		case http2.SettingHeaderTableSize:
			c.enc.SetMaxDynamicTableSizeLimit(s.Val)
		case http2.SettingInitialWindowSize:
			delta := int64(s.Val) - c.peerInitial
			c.peerInitial = int64(s.Val)
			for _, st := range c.streams {
				st.sendWindow += delta
				if st.sendWindow > maxWindow {
					code, bad = http2.ErrCodeFlowControl, true
					return errClosed
				}
			}
			c.cond.Broadcast()
		case http2.SettingMaxFrameSize:
			c.peerMaxFrame = s.Val
		}
		return nil
	})
	if bad {
		return code, true
	}
	c.fr.WriteSettingsAck()
	return c.controlQueued()
}

func (c *conn) onWindowUpdate(f *http2.WindowUpdateFrame) (http2.ErrCode, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	inc := int64(f.Increment)
	if f.StreamID == 0 {
		c.sendWindow += inc
		if c.sendWindow > maxWindow {
			return http2.ErrCodeFlowControl, true
		}
		c.cond.Broadcast()
		return 0, false
	}
	if c.idle(f.StreamID) {
		return http2.ErrCodeProtocol, true
	}
	st := c.streams[f.StreamID]
	if st == nil {
		return 0, false
	}
	st.sendWindow += inc
	if st.sendWindow > maxWindow {
		c.closeStream(st, errors.New("h2: stream window overflow"))
		c.fr.WriteRSTStream(st.id, http2.ErrCodeFlowControl)
		return c.controlQueued()
	}
	c.cond.Broadcast()
	return 0, false
}
