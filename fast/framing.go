// HTTP/1.1 framing.
//
// Requests whose framing two parsers could read differently (request
// smuggling) get the answers net/http gives, with the same reading of the
// request; TestFraming checks each against both engines. fasthttp refuses
// Content-Lengths that disagree and malformed chunk sizes with 400 and
// header blocks over its read buffer with 431, as net/http does; like
// net/http it serves a request with both Content-Length and
// Transfer-Encoding: chunked as chunked (and closes the connection after
// it, which net/http does not), joins obs-fold lines and takes a bare LF
// as a line end. It refuses a Transfer-Encoding other than chunked with
// 400 where net/http answers 501 Not Implemented: parseError gives the 501.

package fast

import "strings"

// unsupportedTE reports whether err is fasthttp's refusal of a
// Transfer-Encoding it does not implement.
func unsupportedTE(err error) bool {
	return strings.Contains(err.Error(), "unsupported transfer-encoding")
}
