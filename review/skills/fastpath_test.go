package skills

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The mayHide shortcut skips the markdown parse. These tests prove it reports exactly
// what the full parse reports: on the hidden-content corpus, on every markdown file under
// testdata (fixtures and fuzz seeds), on those inputs with the trigger characters taken
// out (so that the shortcut is taken), and on random markdown built from the constructs
// that can hide text.

// defang removes what mayHide looks for, keeping everything else: the result takes the
// shortcut, and any construct that survives (a "]" and a ":" on either side of a line
// break, a label split over lines, code spans, containers) is compared against the parse.
func defang(md string) string {
	md = strings.ReplaceAll(md, "<", "(")
	return strings.ReplaceAll(md, "]:", "];")
}

func corpus(t testing.TB) map[string]string {
	out := map[string]string{}
	for _, tc := range scanHiddenCases {
		out["case/"+tc.name] = tc.md
	}
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(data)
		if rest, ok := strings.CutPrefix(s, "go test fuzz v1\n"); ok {
			// One string or []byte argument per seed file.
			for i, line := range strings.Split(rest, "\n") {
				arg := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(line, "string("), "[]byte("), ")")
				if v, err := strconv.Unquote(arg); err == nil {
					out[p+"#"+strconv.Itoa(i)] = v
				}
			}
			return nil
		}
		out[p] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameScan fails when the scan, free to take its shortcuts (mayHide, plainHidden), reports
// anything other than the full markdown parse does, to the last field and whether the
// result is nil, at two first-line offsets.
func sameScan(t *testing.T, name, md string) {
	t.Helper()
	for _, first := range []int{1, 5} {
		fast, fd := scanHiddenWith(md, first, false)
		slow, sd := scanHiddenWith(md, first, true)
		if fd != sd || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s (first line %d): shortcut %v %+v, parse %v %+v", name, first, fd, fast, sd, slow)
			return
		}
	}
}

func TestScanHiddenFastPath(t *testing.T) {
	taken := 0
	for name, md := range corpus(t) {
		sameScan(t, name, md)
		d := defang(md)
		if mayHide(d) {
			t.Fatalf("%s: defang left a trigger", name)
		}
		sameScan(t, name+" (defanged)", d)
		taken++
	}
	if taken < 40 {
		t.Fatalf("only %d corpus inputs", taken)
	}
}

// pieces are the fragments random markdown is built from: containers, code, the halves
// of every construct that can hide text, line endings and invisible characters.
var pieces = []string{
	"x", "word ", " ", "  ", "    ", "\t", "\n", "\n", "\n\n", "\r\n", "\r",
	"> ", "- ", "* ", "1. ", "2) ", "#", "# ", "---\n", "===\n", "|", "| a | b |\n", "|---|---|\n",
	"`", "``", "```\n", "~~~\n", "\\", "&lt;", "&#60;", "&#x3c;", "&#58;",
	"[", "]", ":", "[a]", "[a]\n:", "[a] :", "[a]\n: def", "[\na\n]", ": dd\n", "Term\n: Def\n",
	"(", ")", "\"", "'", "http://x", " \"t\"", "!", "?", "*", "_", "=", "/",
	"<", "<!--", "-->", "<a>", "</a>", "<div>\n", "<?", "?>", "<![CDATA[", "]]>", "]:", "[x]: /u\n",
	"\u200b", "\u202e", "\u00ad", "\x00", "\x1b", "\xff", "é", "中",
}

func randomMarkdown(r *rand.Rand) string {
	var b strings.Builder
	n := 1 + r.Intn(60)
	for i := 0; i < n; i++ {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

// draws is how many random inputs a comparison test builds: n, or a tenth of n under
// -short.
func draws(n int) int {
	if testing.Short() {
		return n / 10
	}
	return n
}

func TestScanHiddenFastPathRandom(t *testing.T) {
	r, n := rand.New(rand.NewSource(1)), draws(20000)
	shortcut := 0
	for i := 0; i < n; i++ {
		md := randomMarkdown(r)
		if !mayHide(md) {
			shortcut++
		}
		sameScan(t, strconv.Quote(md), md)
		sameScan(t, strconv.Quote(defang(md)), defang(md))
		if t.Failed() {
			return
		}
	}
	if shortcut < n/20 {
		t.Fatalf("only %d of %d random inputs took the shortcut before defanging", shortcut, n)
	}
}

// The shortcut must not hide what the parse finds: every input whose parse reports an
// HTML comment, tag or link definition is one that mayHide lets through.
func TestMayHideNecessary(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	found := 0
	for i := 0; i < 20000; i++ {
		md := randomMarkdown(r)
		out, _ := scanHiddenWith(md, 1, true)
		for _, h := range out {
			// Invisible characters, titles and fence info are scanned on every path.
			if h.Kind != HiddenInvisible && h.Kind != HiddenLinkTitle && h.Kind != HiddenImageTitle && h.Kind != HiddenFenceInfo {
				found++
				if !mayHide(md) {
					t.Fatalf("%q: the parse reports %+v but mayHide is false", md, h)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("the random corpus never produced hidden content")
	}
}

// FuzzScanHiddenFastPath checks the shortcut against the parse on arbitrary input and on
// the input with its triggers removed.
func FuzzScanHiddenFastPath(f *testing.F) {
	f.Add("[a]\n: b\n")
	f.Add("> [q]\n> : x\n")
	f.Add("- a\n  [l]\n: http://l\n<i>x</i>\n")
	f.Fuzz(func(t *testing.T, md string) {
		if len(md) > 4096 || !utf8.ValidString(md) && len(md) > 1024 {
			return
		}
		sameScan(t, strconv.Quote(md), md)
		sameScan(t, strconv.Quote(defang(md)), defang(md))
	})
}

// scanInvisible's byte fast path must agree with the rune-by-rune definition.
func TestScanInvisibleASCIIFastPath(t *testing.T) {
	for c := 0; c < 0x80; c++ {
		s := "a" + string(rune(c)) + "b"
		got := scanInvisible(s, newLineIndex(s, 1))
		want := IsInvisible(rune(c)) && c != '\n'
		if (len(got) == 1) != want || len(got) > 1 {
			t.Errorf("byte 0x%02X: %+v, want invisible=%v", c, got, want)
		}
	}
	for _, s := range []string{"a\r\nb", "a\rb", "\r", "x\r", "\r\n\r\n\r"} {
		got := scanInvisible(s, newLineIndex(s, 1))
		want := strings.Count(strings.ReplaceAll(s, "\r\n", ""), "\r")
		if len(got) != want {
			t.Errorf("%q: %+v, want %d findings", s, got, want)
		}
	}
}
