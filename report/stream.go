package report

import (
	"bufio"
	"io"

	"vouch/model"
)

// Stream writes a validation report package by package, so a run over thousands of
// packages holds one package's report at a time, not the whole document: each package is
// encoded, written and dropped as it is added. The document is the one Build and
// WriteJSON give, member for member, except that "valid" comes last, after "packages"
// and "diagnostics", since it is known only then (JSON objects are unordered; the schema
// requires the members, not their order).
type Stream struct {
	w     *bufio.Writer
	n     int
	valid bool
	err   error
}

// NewStream starts a validation report on w.
func NewStream(w io.Writer) *Stream {
	s := &Stream{w: bufio.NewWriterSize(w, 256<<10), valid: true}
	s.write([]byte("{\n  \"schema_version\": 1,\n  \"packages\": ["))
	return s
}

func (s *Stream) write(b []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

// Add writes the packages' reports, in order.
func (s *Stream) Add(pkgs ...*model.Package) error {
	for _, p := range pkgs {
		rp, valid := buildPackage(p, nil)
		if !valid {
			s.valid = false
		}
		b, err := encodeIndented(rp, "    ")
		if err != nil {
			return err
		}
		if s.n > 0 {
			s.write([]byte(","))
		}
		s.write([]byte("\n    "))
		s.write(b[:len(b)-1]) // without the encoder's newline
		s.n++
	}
	return s.err
}

// Close writes the diagnostics about the sources and the verdict, and flushes. It
// returns the report's Valid: packages were found, all are valid, no error anywhere.
func (s *Stream) Close(sourceDiags []model.Diagnostic) (bool, error) {
	if s.n > 0 {
		s.write([]byte("\n  "))
	}
	s.write([]byte("],\n  \"diagnostics\": "))
	for _, d := range sourceDiags {
		if d.IsError() {
			s.valid = false
		}
	}
	if s.n == 0 {
		s.valid = false
	}
	b, err := encodeIndented(nonNil(sourceDiags), "  ")
	if err != nil {
		return false, err
	}
	s.write(b[:len(b)-1])
	if s.valid {
		s.write([]byte(",\n  \"valid\": true\n}\n"))
	} else {
		s.write([]byte(",\n  \"valid\": false\n}\n"))
	}
	if s.err == nil {
		s.err = s.w.Flush()
	}
	return s.valid, s.err
}
