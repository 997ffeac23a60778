package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	rcodex "vouch/review/codex"
)

// jsonDefinitionHash is a second construction of Codex's definition hash: the normalized
// identity as Go maps, encoded by encoding/json (which sorts map keys and writes compact
// JSON), then SHA-256. It differs from serde_json only in strings encoding/json escapes
// and serde_json does not (U+2028, U+2029) and in invalid UTF-8; the fuzz target leaves
// those out.
func jsonDefinitionHash(label string, matcher *string, command string, timeout uint64, async bool, status *string) string {
	handler := map[string]any{"type": "command", "command": command, "timeout": timeout, "async": async}
	if status != nil {
		handler["statusMessage"] = *status
	}
	doc := map[string]any{"event_name": label, "hooks": []any{handler}}
	if matcher != nil {
		doc["matcher"] = *matcher
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		panic(err)
	}
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func comparable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsAny(s, "\u2028\u2029")
}

func TestDefinitionHashVector(t *testing.T) {
	m := "Bash"
	for name, h := range map[string]string{
		"review/codex":  rcodex.DefinitionHash("pre_tool_use", &m, "echo hi", 600, false, nil),
		"encoding/json": jsonDefinitionHash("pre_tool_use", &m, "echo hi", 600, false, nil),
	} {
		if h != vectorDefinition {
			t.Errorf("%s gives %s, want Codex's %s", name, h, vectorDefinition)
		}
	}
}

func FuzzDefinitionHash(f *testing.F) {
	f.Add("pre_tool_use", "Bash", true, "echo hi", uint64(600), false, "", false)
	f.Add("stop", "", false, "sh \"${PLUGIN_ROOT}/x\" <in >out & \x01\t\n", uint64(0), true, "Checking…", true)
	f.Fuzz(func(t *testing.T, label, matcher string, hasMatcher bool, command string, timeout uint64, async bool, status string, hasStatus bool) {
		if !comparable(label) || !comparable(matcher) || !comparable(command) || !comparable(status) {
			return
		}
		var mp, sp *string
		if hasMatcher {
			mp = &matcher
		}
		if hasStatus {
			sp = &status
		}
		a := rcodex.DefinitionHash(label, mp, command, timeout, async, sp)
		b := jsonDefinitionHash(label, mp, command, timeout, async, sp)
		if a != b {
			t.Fatalf("review/codex %s, encoding/json %s", a, b)
		}
	})
}
