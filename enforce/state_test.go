package enforce

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStateRoundTripAndDamage(t *testing.T) {
	l := LayoutOf(t.TempDir())
	st, err := LoadState(l)
	if err != nil || len(st.Entries("claude-code")) != 0 {
		t.Fatalf("a missing state file is not an empty state: %v", err)
	}
	if err := UpdateState(l, func(s *State) error {
		s.Put("claude-code", &Entry{Name: "p", Phase: PhaseAdding, Digests: map[string]string{"p#hook:x": "sha256:00"}})
		s.SetOption("claude-code", "strict", "true")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st, err = LoadState(l)
	if err != nil || st.Plugin("claude-code", "p") == nil || st.Plugin("claude-code", "p").Phase != PhaseAdding || st.Option("claude-code", "strict") != "true" {
		t.Fatalf("the state did not come back: %+v %v", st, err)
	}
	for _, bad := range []string{"{", `{"version": 2}`, `[]`, `{"version": 1, "clients": {"c": {"p": null}}}`, `{"version": 1, "clients": {"c": {"p": {"name": "q"}}}}`} {
		if err := os.WriteFile(l.StateFile(), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadState(l); err == nil || !strings.Contains(err.Error(), l.StateFile()) {
			t.Fatalf("%q: err = %v, want one naming the file", bad, err)
		}
		if err := UpdateState(l, func(s *State) error { return nil }); err == nil {
			t.Fatalf("%q: a damaged state file was rewritten", bad)
		}
		if got, _ := os.ReadFile(l.StateFile()); string(got) != bad {
			t.Fatalf("%q: the damaged file changed to %q", bad, got)
		}
	}
	if got := filepath.Base(filepath.Dir(l.StateFile())); got != "enforce" {
		t.Fatalf("the state file is not under enforce/: %s", l.StateFile())
	}
}

// FuzzState: any state file text is read or refused, never a panic.
func FuzzState(f *testing.F) {
	f.Add([]byte(`{"version": 1, "clients": {"claude-code": {"p": {"name": "p", "phase": "enforced"}}}}`))
	f.Add([]byte(`{"version": 1, "clients": {"x": null}, "options": {"x": {"a": "b"}}}`))
	f.Add([]byte(`{"version": 1, "clients": {"c": {"p": null}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseState("state.json", data)
		if err != nil {
			return
		}
		for c := range s.Clients {
			for _, e := range s.Entries(c) {
				_ = s.Plugin(c, e.Name)
			}
		}
	})
}
