package main

import (
	"bytes"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smallstep/pkcs7"

	"vouch/review/mcpb"
)

// TestSignedBundleCLI: a bundle `mcpb sign` 2.1.2 signed is reported as signed by a
// signer vouch cannot confirm until its certificate is in <home>/signing-roots.pem, then
// as verified; the signature approves nothing (the server stays unreviewed), approve
// shows the signer and records its fingerprint in the decision, and a bundle changed
// after signing says its signature is bad.
func TestSignedBundleCLI(t *testing.T) {
	data, err := os.ReadFile("../../review/mcpb/testdata/packed/signed.mcpb")
	if err != nil {
		t.Fatal(err)
	}
	dir, home := t.TempDir(), t.TempDir()
	src := filepath.Join(dir, "notes-server.mcpb")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	const ref = "notes-server#mcp-server:notes-server"
	out, _ := expectRun(t, home, "status without roots", 0, "status", src)
	if !strings.Contains(out, "bundle-signature-untrusted") {
		t.Fatalf("status without roots:\n%s", out)
	}

	_, sig := mcpb.SplitSignature(data)
	p7, err := pkcs7.Parse(sig.Blob)
	if err != nil || len(p7.Certificates) == 0 {
		t.Fatalf("the fixture's certificate: %v", err)
	}
	roots := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p7.Certificates[0].Raw})
	if err := os.WriteFile(filepath.Join(home, "signing-roots.pem"), roots, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ = expectRun(t, home, "status with the signer's root", 0, "status", src)
	if !strings.Contains(out, "bundle-signature-verified") || !strings.Contains(out, "unreviewed") {
		t.Fatalf("a verified signature must be shown and approve nothing:\n%s", out)
	}
	out, _ = expectRun(t, home, "status --json", 0, "status", "--json", src)
	var rep struct {
		Packages []struct {
			Signature struct{ Status, Signer, Fingerprint string } `json:"signature"`
		} `json:"packages"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Packages) != 1 || rep.Packages[0].Signature.Status != "verified" || !strings.HasPrefix(rep.Packages[0].Signature.Fingerprint, "sha256:") {
		t.Fatalf("status --json signature: %v\n%s", err, out)
	}
	expectRun(t, home, "check of a signed, unreviewed server", 1, "check", src, ref)

	out, _ = expectRun(t, home, "approve", 0, "approve", "--yes", src, ref)
	if !strings.Contains(out, "signer   verified CN=MCPB Self-Signed Certificate") {
		t.Fatalf("approve does not show the signer:\n%s", out)
	}
	ledger, _ := os.ReadFile(filepath.Join(home, "ledger.toml"))
	if !bytes.Contains(ledger, []byte(`signer = "sha256:`)) || !bytes.Contains(ledger, []byte(`signer_status = "verified"`)) {
		t.Fatalf("the decision does not record the signer:\n%s", ledger)
	}

	// One byte of the zip changed after signing, one no zip reader checks (the spec
	// version a central directory entry was made by): the files read the same, the
	// signature is bad.
	bad := append([]byte(nil), data...)
	i := bytes.Index(bad, []byte("PK\x01\x02"))
	bad[i+4] ^= 1
	if err := os.WriteFile(src, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = expectRun(t, home, "status of a bundle changed after signing", 0, "status", src)
	if !strings.Contains(out, "bundle-signature-invalid") {
		t.Fatalf("a bundle changed after signing:\n%s", out)
	}

	// A roots file that is not PEM certificates is a clear error, not "no roots".
	os.WriteFile(filepath.Join(home, "signing-roots.pem"), []byte("not pem"), 0o600)
	_, errs := expectRun(t, home, "status with a broken roots file", 2, "status", src)
	if !strings.Contains(errs, "signing-roots.pem") {
		t.Fatalf("the error does not name the roots file: %s", errs)
	}
}
