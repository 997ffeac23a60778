package mcpb

import (
	"archive/zip"
	"os"
	"testing"
)

// BenchmarkReadZip: a bundle mcpb packed, against refusing a 1 GiB ratio bomb (declared
// and lying sizes); the refusals must cost about what reading the central directory costs.
func BenchmarkReadZip(b *testing.B) {
	packed, err := os.ReadFile("testdata/packed/notes-server.mcpb")
	if err != nil {
		b.Fatal(err)
	}
	big := bomb(b, 1024)
	declared := mkzip(b, entry{raw: &zip.FileHeader{Name: "z", Method: zip.Deflate, CompressedSize64: uint64(len(big)), UncompressedSize64: 1 << 30}, data: big})
	lying := mkzip(b, entry{raw: &zip.FileHeader{Name: "z", Method: zip.Deflate, CompressedSize64: uint64(len(big)), UncompressedSize64: 1 << 10}, data: big})
	for _, bc := range []struct {
		name string
		data []byte
	}{{"packed", packed}, {"bomb-declared-1GiB", declared}, {"bomb-lying-1GiB", lying}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				ReadZip(bc.data, DefaultZipLimits())
			}
		})
	}
}

// BenchmarkVerifySignature: checking the signature mcpb sign wrote (CMS parse, digest of
// the zip, RSA verify, chain to one root), against ReadZip of the same bundle, the work
// every load of it does anyway.
func BenchmarkVerifySignature(b *testing.B) {
	data, err := os.ReadFile("testdata/packed/signed.mcpb")
	if err != nil {
		b.Fatal(err)
	}
	z, sig, roots := signerAsRoot(b, data)
	b.Run("readzip-baseline", func(b *testing.B) {
		for b.Loop() {
			ReadZip(data, DefaultZipLimits())
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			if VerifySignature(z, sig, roots).Status != SignatureVerified {
				b.Fatal("not verified")
			}
		}
	})
}
