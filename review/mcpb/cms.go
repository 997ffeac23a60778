package mcpb

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// A small CMS SignedData reader (RFC 5652), enough to verify what mcpb sign writes: one
// signer, detached content, SHA-2 digests, RSA or ECDSA keys, signed attributes.
// Libraries re-encode the signed attributes before checking the signature over them;
// mcpb's signer (node-forge) does not write them in DER set order, so a re-encoding
// differs from the bytes it signed and a valid signature fails. The signature is checked
// here over the attributes exactly as they arrived, as openssl cms -verify does.

var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidData          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidContentType   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSigningTime   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 5}

	oidSHA256 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidSHA384 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}
	oidSHA512 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}

	oidRSA           = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidSHA256WithRSA = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidSHA384WithRSA = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 12}
	oidSHA512WithRSA = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 13}
	oidECPublicKey   = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidECDSASHA256   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
	oidECDSASHA384   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 3}
	oidECDSASHA512   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 4}
)

type cmsContentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"explicit,tag:0"`
}

type cmsSignedData struct {
	Version          int
	DigestAlgorithms asn1.RawValue
	Encap            cmsEncap
	Certificates     asn1.RawValue   `asn1:"optional,tag:0"`
	CRLs             asn1.RawValue   `asn1:"optional,tag:1"`
	SignerInfos      []cmsSignerInfo `asn1:"set"`
}

type cmsEncap struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"optional,explicit,tag:0"`
}

type cmsSignerInfo struct {
	Version            int
	SID                asn1.RawValue
	DigestAlgorithm    pkix.AlgorithmIdentifier
	SignedAttrs        asn1.RawValue `asn1:"optional,tag:0"`
	SignatureAlgorithm pkix.AlgorithmIdentifier
	Signature          []byte
	UnsignedAttrs      asn1.RawValue `asn1:"optional,tag:1"`
}

type cmsIssuerSerial struct {
	Issuer asn1.RawValue
	Serial *big.Int
}

type cmsAttribute struct {
	Type   asn1.ObjectIdentifier
	Values asn1.RawValue `asn1:"set"`
}

// cmsSignature is one parsed SignedData: its signer's certificate, the other
// certificates it carries, and how to check it.
type cmsSignature struct {
	signer      *x509.Certificate
	certs       []*x509.Certificate
	info        cmsSignerInfo
	embedded    []byte // encapsulated content, nil when detached
	hash        crypto.Hash
	signingTime time.Time
}

func parseCMS(der []byte) (*cmsSignature, error) {
	var ci cmsContentInfo
	if rest, err := asn1.Unmarshal(der, &ci); err != nil {
		return nil, fmt.Errorf("not DER ASN.1: %v", err)
	} else if len(rest) > 0 {
		return nil, errors.New("bytes after the signature")
	}
	if !ci.ContentType.Equal(oidSignedData) {
		return nil, fmt.Errorf("content type %v, not signedData", ci.ContentType)
	}
	var sd cmsSignedData
	if rest, err := asn1.Unmarshal(ci.Content.Bytes, &sd); err != nil {
		return nil, fmt.Errorf("SignedData: %v", err)
	} else if len(rest) > 0 {
		return nil, errors.New("bytes after the SignedData")
	}
	if !sd.Encap.ContentType.Equal(oidData) {
		return nil, fmt.Errorf("signed content type %v, not data", sd.Encap.ContentType)
	}
	if len(sd.SignerInfos) != 1 {
		return nil, fmt.Errorf("%d signers; an MCPB signature has exactly one", len(sd.SignerInfos))
	}
	s := &cmsSignature{info: sd.SignerInfos[0]}
	if len(sd.Encap.Content.Bytes) > 0 {
		if _, err := asn1.Unmarshal(sd.Encap.Content.Bytes, &s.embedded); err != nil {
			return nil, fmt.Errorf("embedded content: %v", err)
		}
	}
	if len(sd.Certificates.Bytes) > 0 {
		certs, err := x509.ParseCertificates(sd.Certificates.Bytes)
		if err != nil {
			return nil, fmt.Errorf("certificates: %v", err)
		}
		s.certs = certs
	}
	var err error
	if s.signer, err = s.findSigner(); err != nil {
		return nil, err
	}
	switch {
	case s.info.DigestAlgorithm.Algorithm.Equal(oidSHA256):
		s.hash = crypto.SHA256
	case s.info.DigestAlgorithm.Algorithm.Equal(oidSHA384):
		s.hash = crypto.SHA384
	case s.info.DigestAlgorithm.Algorithm.Equal(oidSHA512):
		s.hash = crypto.SHA512
	default:
		return nil, fmt.Errorf("digest algorithm %v is not SHA-2", s.info.DigestAlgorithm.Algorithm)
	}
	return s, nil
}

// findSigner is the certificate the signer info names, by issuer and serial or by
// subject key identifier.
func (s *cmsSignature) findSigner() (*x509.Certificate, error) {
	sid := s.info.SID
	for _, c := range s.certs {
		if sid.Class == asn1.ClassContextSpecific && sid.Tag == 0 {
			if len(c.SubjectKeyId) > 0 && bytes.Equal(c.SubjectKeyId, sid.Bytes) {
				return c, nil
			}
			continue
		}
		var is cmsIssuerSerial
		if _, err := asn1.Unmarshal(sid.FullBytes, &is); err != nil {
			return nil, fmt.Errorf("signer identifier: %v", err)
		}
		if is.Serial != nil && c.SerialNumber.Cmp(is.Serial) == 0 && bytes.Equal(c.RawIssuer, is.Issuer.FullBytes) {
			return c, nil
		}
	}
	return nil, errors.New("the signer's certificate is not in the signature")
}

// verify checks the signature over content: the signed attributes' messageDigest and
// contentType, then the signer's signature over those attributes as they arrived.
func (s *cmsSignature) verify(content []byte) error {
	h := s.hash.New()
	h.Write(content)
	digest := h.Sum(nil)
	signed := content
	if len(s.info.SignedAttrs.FullBytes) > 0 {
		var attrs []cmsAttribute
		if _, err := asn1.UnmarshalWithParams(s.info.SignedAttrs.FullBytes, &attrs, "set,tag:0"); err != nil {
			return fmt.Errorf("signed attributes: %v", err)
		}
		var md []byte
		var ct asn1.ObjectIdentifier
		for _, a := range attrs {
			switch {
			case a.Type.Equal(oidMessageDigest):
				if _, err := asn1.Unmarshal(a.Values.Bytes, &md); err != nil {
					return fmt.Errorf("messageDigest: %v", err)
				}
			case a.Type.Equal(oidContentType):
				if _, err := asn1.Unmarshal(a.Values.Bytes, &ct); err != nil {
					return fmt.Errorf("contentType: %v", err)
				}
			case a.Type.Equal(oidSigningTime):
				var t time.Time
				if _, err := asn1.Unmarshal(a.Values.Bytes, &t); err == nil {
					s.signingTime = t.UTC()
				}
			}
		}
		if !ct.Equal(oidData) {
			return errors.New("the signed contentType attribute is missing or not data")
		}
		if !bytes.Equal(md, digest) {
			return errors.New("the signed message digest is not the digest of these bytes")
		}
		// The signature covers the attributes as a SET (tag 0x31), not as the [0] field.
		signed = append([]byte{0x31}, s.info.SignedAttrs.FullBytes[1:]...)
	}
	alg, err := s.algorithm()
	if err != nil {
		return err
	}
	return s.signer.CheckSignature(alg, signed, s.info.Signature)
}

func (s *cmsSignature) algorithm() (x509.SignatureAlgorithm, error) {
	a := s.info.SignatureAlgorithm.Algorithm
	rsa := a.Equal(oidRSA) || a.Equal(oidSHA256WithRSA) || a.Equal(oidSHA384WithRSA) || a.Equal(oidSHA512WithRSA)
	ec := a.Equal(oidECPublicKey) || a.Equal(oidECDSASHA256) || a.Equal(oidECDSASHA384) || a.Equal(oidECDSASHA512)
	switch {
	case rsa && s.hash == crypto.SHA256:
		return x509.SHA256WithRSA, nil
	case rsa && s.hash == crypto.SHA384:
		return x509.SHA384WithRSA, nil
	case rsa && s.hash == crypto.SHA512:
		return x509.SHA512WithRSA, nil
	case ec && s.hash == crypto.SHA256:
		return x509.ECDSAWithSHA256, nil
	case ec && s.hash == crypto.SHA384:
		return x509.ECDSAWithSHA384, nil
	case ec && s.hash == crypto.SHA512:
		return x509.ECDSAWithSHA512, nil
	}
	return 0, fmt.Errorf("signature algorithm %v is not one vouch checks (RSA or ECDSA with SHA-2)", a)
}

// chain verifies the signer's certificate against roots alone, now, with the other
// certificates of the signature as intermediates.
func (s *cmsSignature) chain(roots *x509.CertPool, now time.Time) error {
	inter := x509.NewCertPool()
	for _, c := range s.certs {
		if c != s.signer {
			inter.AddCert(c)
		}
	}
	_, err := s.signer.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}})
	return err
}
