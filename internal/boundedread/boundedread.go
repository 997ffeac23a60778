// Package boundedread reads a file whose size fstat has just given, to its end or to
// one byte past a limit, whichever comes first. Package files (review/fsguard), the
// gate's manifest probes (review) and the ledger and store (trust) are all read so.
package boundedread

import "io"

// Read reads r to its end or to max+1 bytes. The buffer starts at size (what fstat
// reported) plus one byte, so a file that does not change is read into it with one
// read and copied nowhere: a read of a regular file that returns fewer bytes than asked
// has reached the end, and when those are exactly the size bytes, the read that would
// only see the end (a system call per file) is skipped. A file that grew since fstat
// fills the extra byte and is read on to its end or to max+1 bytes; the caller tells
// "over the limit" by the length. r must return io.EOF at the end.
func Read(r io.Reader, size, max int64) ([]byte, error) {
	if size < 0 || size > max {
		size = max
	}
	want := size
	buf := make([]byte, 0, size+1)
	for int64(len(buf)) <= max {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grew since fstat: let append pick the growth
		}
		chunk := buf[len(buf):cap(buf)]
		if room := max + 1 - int64(len(buf)); int64(len(chunk)) > room {
			chunk = chunk[:room]
		}
		n, err := r.Read(chunk)
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if n < len(chunk) && int64(len(buf)) == want {
			return buf, nil
		}
	}
	return buf, nil
}
