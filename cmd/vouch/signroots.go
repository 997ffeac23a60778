package main

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"

	"vouch/review/fsguard"
)

// signingRootsFile is where a person lists the certificates (PEM) that MCP Bundle
// signatures must chain to: <home>/signing-roots.pem. vouch never uses the operating
// system's store: a root someone else installed there is no reason to believe a signer.
const signingRootsFile = "signing-roots.pem"

// maxSigningRoots bounds the read of the roots file: it holds a few certificates.
const maxSigningRoots = 1 << 20

// signingRoots reads <home>/signing-roots.pem. A missing file is no roots (nil); a file
// that is not regular (a FIFO is refused without waiting), too large, or holds anything
// but PEM certificates is an error naming it.
func signingRoots(home string) (*x509.CertPool, error) {
	if home == "" {
		return nil, nil
	}
	p := filepath.Join(home, signingRootsFile)
	data, _, err := fsguard.ReadUserFile(p, maxSigningRoots+1)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the signing roots %s could not be read (%v)", p, err)
	}
	if len(data) > maxSigningRoots {
		return nil, fmt.Errorf("the signing roots %s are larger than %d bytes", p, maxSigningRoots)
	}
	pool := x509.NewCertPool()
	n := 0
	for rest := data; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("the signing roots %s hold a %q block; only CERTIFICATE blocks belong there", p, b.Type)
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("the signing roots %s hold a certificate that does not parse (%v)", p, err)
		}
		pool.AddCert(c)
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("the signing roots %s hold no PEM certificate", p)
	}
	return pool, nil
}
