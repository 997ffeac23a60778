package mcpb

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"time"

	"vouch/model"
)

// Signature statuses, as a bundle's signature check reports them.
const (
	SignatureUnsigned  = "unsigned"  // no signature block
	SignatureVerified  = "verified"  // a valid signature over the zip, chained to the configured roots
	SignatureUntrusted = "untrusted" // a valid signature over the zip by a certificate that chains to no configured root
	SignatureInvalid   = "invalid"   // a block that is not a valid signature over these zip bytes
)

// SignatureCheck is what a bundle's signature says: who published exactly these bytes.
// It is evidence shown beside an approval, never an approval: a signature says who
// published the bytes, not that anyone reviewed them.
type SignatureCheck struct {
	Status      string
	Signer      string    // the signing certificate's subject, "" when there is none
	Fingerprint string    // "sha256:<hex>" of the signing certificate's DER, "" when there is none
	SigningTime time.Time // the signed signingTime attribute, zero when absent
	Detail      string    // one sentence: why it is not verified, or what was checked
}

// VerifySignature checks the signature block sig of a bundle whose zip bytes are zip, as
// `openssl cms -verify -binary -content ZIP -CAfile ROOTS` does (mcpb sign 2.1.2 writes
// a detached CMS SignedData, SHA-256, signed attributes; mcpb verify 2.1.2 verifies
// nothing). The block's placement was already checked by SplitSignature and the zip
// reader: the footer ends the file and the zip's end record ends where the block starts.
// The chain is checked against roots only, the roots the user configured, never the
// operating system's store: nil roots leave a valid signature untrusted.
func VerifySignature(zip []byte, sig *Signature, roots *x509.CertPool) (out SignatureCheck) {
	// The ASN.1 walk of a hostile blob must not take the review down with it: a panic in
	// the library is a damaged signature, not a crash.
	defer func() {
		if r := recover(); r != nil {
			out = SignatureCheck{Status: SignatureInvalid, Detail: fmt.Sprintf("The signature block is malformed (%v).", r)}
		}
	}()
	return verifySignature(zip, sig, roots)
}

func verifySignature(zip []byte, sig *Signature, roots *x509.CertPool) SignatureCheck {
	if sig == nil {
		return SignatureCheck{Status: SignatureUnsigned, Detail: "The bundle carries no signature."}
	}
	cms, err := parseCMS(sig.Blob)
	if err != nil {
		return SignatureCheck{Status: SignatureInvalid, Detail: fmt.Sprintf("The signature block is not a CMS SignedData vouch can check (%v).", err)}
	}
	sum := sha256.Sum256(cms.signer.Raw)
	out := SignatureCheck{Signer: cms.signer.Subject.String(), Fingerprint: "sha256:" + hex.EncodeToString(sum[:])}
	if cms.embedded != nil && !bytes.Equal(cms.embedded, zip) {
		out.Status, out.Detail = SignatureInvalid, "The signature embeds content other than this bundle's zip bytes."
		return out
	}
	// The signature over the bytes first, the chain apart, so that a bundle changed after
	// signing is told from one signed by someone the user does not trust.
	err = cms.verify(zip)
	out.SigningTime = cms.signingTime
	if err != nil {
		out.Status, out.Detail = SignatureInvalid, fmt.Sprintf("The signature does not match these bytes: the bundle was changed after signing, or the signature is damaged (%v).", err)
		return out
	}
	if roots == nil {
		out.Status, out.Detail = SignatureUntrusted, "The signature is valid, but no signing roots are configured, so who the signer is cannot be checked."
		return out
	}
	// Now, not at the signed signingTime: that time is the signer's own claim, and a key
	// whose certificate expired could claim any earlier one.
	if err := cms.chain(roots, time.Now()); err != nil {
		out.Status, out.Detail = SignatureUntrusted, fmt.Sprintf("The signature is valid, but its certificate does not chain to the signing roots you configured (%v).", err)
		return out
	}
	out.Status, out.Detail = SignatureVerified, "The signature is valid over the bundle's zip bytes and its certificate chains to a signing root you configured."
	return out
}

func blockLen(sig *Signature) int64 {
	if sig == nil {
		return 0
	}
	return sig.Block
}

// signatureOf records the bundle's signature check on pkg, with a diagnostic that says
// what it means: who published the bytes, never that anyone reviewed them.
func signatureOf(pkg *model.Package, zip []byte, sig *Signature, roots *x509.CertPool) {
	c := VerifySignature(zip, sig, roots)
	pkg.Signature = &model.Signature{Status: c.Status, Signer: c.Signer, Fingerprint: c.Fingerprint, Detail: c.Detail}
	sev, msg := model.SeverityInfo, ""
	switch c.Status {
	case SignatureUnsigned:
		msg = "The bundle is unsigned: nothing says who published it."
	case SignatureVerified:
		msg = fmt.Sprintf("Signed by %s (certificate %s)%s; %s A signature says who published the bytes, not that anyone reviewed them: it approves nothing.", c.Signer, c.Fingerprint, signedAt(c.SigningTime), c.Detail)
	case SignatureUntrusted:
		sev = model.SeverityWarning
		msg = fmt.Sprintf("Signed by %s (certificate %s)%s, a signer vouch cannot confirm: %s", c.Signer, c.Fingerprint, signedAt(c.SigningTime), c.Detail)
	default:
		sev = model.SeverityWarning
		msg = "The bundle's signature is bad: " + c.Detail
	}
	pkg.Diagnostics = append(pkg.Diagnostics, model.Diagnostic{Code: "bundle-signature-" + c.Status, Severity: sev, Boundary: model.BoundaryPackage, Spec: specBundle, Message: msg})
}

func signedAt(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " at " + t.Format(time.RFC3339)
}
