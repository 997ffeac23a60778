package mcpb

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smallstep/pkcs7"
)

// testCA is a root and a leaf it issued, made for the test: no fixture key is committed.
type testCA struct {
	root, leaf *x509.Certificate
	leafKey    *ecdsa.PrivateKey
}

func newTestCA(t testing.TB, name string) testCA {
	t.Helper()
	rootKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	now := time.Now()
	rootT := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name + " root"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	rootDER, err := x509.CreateCertificate(rand.Reader, rootT, rootT, &rootKey.PublicKey, rootKey)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := x509.ParseCertificate(rootDER)
	leafKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leafT := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: name + " publisher"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafT, root, &leafKey.PublicKey, rootKey)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(leafDER)
	return testCA{root: root, leaf: leaf, leafKey: leafKey}
}

func (ca testCA) pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.root)
	return p
}

// sign is what mcpb sign writes: a detached SignedData over the zip, with signed
// attributes, appended between MCPB_SIG_V1 + u32 length and MCPB_SIG_END.
func (ca testCA) sign(t testing.TB, zip []byte) []byte {
	t.Helper()
	sd, err := pkcs7.NewSignedData(zip)
	if err != nil {
		t.Fatal(err)
	}
	sd.SetDigestAlgorithm(pkcs7.OIDDigestAlgorithmSHA256)
	if err := sd.AddSigner(ca.leaf, ca.leafKey, pkcs7.SignerInfoConfig{}); err != nil {
		t.Fatal(err)
	}
	sd.Detach()
	der, err := sd.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return appendBlock(zip, der)
}

func appendBlock(zip, der []byte) []byte {
	out := append(append([]byte(nil), zip...), sigHeader...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(der)))
	return append(append(out, der...), sigFooter...)
}

func checkOf(data []byte, roots *x509.CertPool) SignatureCheck {
	z, sig := SplitSignature(data)
	return VerifySignature(z, sig, roots)
}

func TestVerifySignature(t *testing.T) {
	zip := mkzip(t, goodEntries()...)
	ca, other := newTestCA(t, "acme"), newTestCA(t, "other")
	signed := ca.sign(t, zip)
	flipped := append([]byte(nil), signed...)
	flipped[len(zip)/2] ^= 1 // one byte of the zip, after signing
	cases := []struct {
		name   string
		data   []byte
		roots  *x509.CertPool
		status string
		signer string
	}{
		{"unsigned", zip, ca.pool(), SignatureUnsigned, ""},
		{"chains to the configured root", signed, ca.pool(), SignatureVerified, "CN=acme publisher"},
		{"no roots configured", signed, nil, SignatureUntrusted, "CN=acme publisher"},
		{"another root", signed, other.pool(), SignatureUntrusted, "CN=acme publisher"},
		{"zip changed after signing", flipped, ca.pool(), SignatureInvalid, "CN=acme publisher"},
		{"signature over other bytes", appendBlock(zip, lastBlob(t, other.sign(t, []byte("other bytes")))), other.pool(), SignatureInvalid, "CN=other publisher"},
		{"not CMS", appendBlock(zip, []byte("DER!")), ca.pool(), SignatureInvalid, ""},
		{"empty blob", appendBlock(zip, nil), ca.pool(), SignatureInvalid, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := checkOf(c.data, c.roots)
			if got.Status != c.status || got.Signer != c.signer || got.Detail == "" {
				t.Fatalf("got %+v; want status %s signer %q", got, c.status, c.signer)
			}
			if c.signer != "" && !strings.HasPrefix(got.Fingerprint, "sha256:") {
				t.Fatalf("no fingerprint: %+v", got)
			}
		})
	}
}

func lastBlob(t testing.TB, signed []byte) []byte {
	_, sig := SplitSignature(signed)
	if sig == nil {
		t.Fatal("no block")
	}
	return sig.Blob
}

// TestVerifySignatureMCPBSign: the bundle `mcpb sign --self-signed` 2.1.2 wrote verifies
// over its zip bytes; its self-signed certificate is no configured root until the user
// puts it there.
func TestVerifySignatureMCPBSign(t *testing.T) {
	data, err := os.ReadFile("testdata/packed/signed.mcpb")
	if err != nil {
		t.Fatal(err)
	}
	got := checkOf(data, nil)
	if got.Status != SignatureUntrusted || got.Signer == "" {
		t.Fatalf("mcpb's own signature: %+v", got)
	}
	z, sig, pool := signerAsRoot(t, data)
	if got := VerifySignature(z, sig, pool); got.Status != SignatureVerified {
		t.Fatalf("with its certificate as a root: %+v", got)
	}
}

// TestVerifySignatureOpenSSL: a signature openssl cms -sign makes over the zip (the tool
// ENFORCE.md verified mcpb's blocks with) verifies, and fails after a one-byte change.
func TestVerifySignatureOpenSSL(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("no openssl here")
	}
	dir := t.TempDir()
	ca := newTestCA(t, "openssl")
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(ca.leafKey)
	zip := mkzip(t, goodEntries()...)
	in, key := write("bundle.zip", zip), write("key.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	cert := write("leaf.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.leaf.Raw}))
	out := filepath.Join(dir, "sig.der")
	cmd := exec.Command(openssl, "cms", "-sign", "-binary", "-in", in, "-signer", cert, "-inkey", key, "-outform", "DER", "-out", out, "-md", "sha256")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("openssl cms -sign: %v %s", err, b)
	}
	der, _ := os.ReadFile(out)
	if got := checkOf(appendBlock(zip, der), ca.pool()); got.Status != SignatureVerified || got.Signer != "CN=openssl publisher" || got.SigningTime.IsZero() {
		t.Fatalf("openssl's signature: %+v", got)
	}
	changed := bytes.Replace(zip, []byte("index.js"), []byte("indeX.js"), 1)
	if got := checkOf(appendBlock(changed, der), ca.pool()); got.Status != SignatureInvalid {
		t.Fatalf("after a one-byte change: %+v", got)
	}
}

// FuzzVerifySignature: a hostile signature block is a status and a sentence, never a
// panic, and never verified without roots.
func FuzzVerifySignature(f *testing.F) {
	data, _ := os.ReadFile("testdata/packed/signed.mcpb")
	if _, sig := SplitSignature(data); sig != nil {
		f.Add(sig.Blob)
	}
	f.Add([]byte("DER!"))
	f.Add([]byte{0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02})
	f.Fuzz(func(t *testing.T, blob []byte) {
		got := VerifySignature([]byte("zip"), &Signature{Blob: blob, Length: len(blob)}, nil)
		if got.Status == SignatureVerified || got.Status == "" || got.Detail == "" {
			t.Fatalf("%+v", got)
		}
	})
}

// signerAsRoot splits a signed bundle into its zip bytes and signature block, and returns
// a root pool holding the signer's own certificate, as a user who trusts it configures.
func signerAsRoot(tb testing.TB, data []byte) ([]byte, *Signature, *x509.CertPool) {
	tb.Helper()
	z, sig := SplitSignature(data)
	if sig == nil {
		tb.Fatal("no signature block")
	}
	cms, err := parseCMS(sig.Blob)
	if err != nil {
		tb.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cms.signer)
	return z, sig, pool
}
