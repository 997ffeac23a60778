package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ParseLedger decodes ledger bytes that did not come from a file vouch reads itself (a
// ledger as it stands on a base branch, taken from git), with every check readLedger
// applies. name is what errors call the bytes. Empty bytes are an empty ledger.
func ParseLedger(name string, data []byte) ([]Decision, error) {
	if len(data) > maxLedgerBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d MiB", ErrDamagedLedger, name, maxLedgerBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	return decodeLedger(name, data)
}

// EncodeLedger writes decisions as a complete ledger file, in order.
func EncodeLedger(ds []Decision) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(ledgerHeader)
	for _, d := range ds {
		d.Ledger = ""
		b, err := encodeDecision(d)
		if err != nil {
			return nil, err
		}
		buf.WriteByte('\n')
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

// DecisionKey identifies a decision as a whole record (every stored field, whatever
// fields a later schema adds), so two ledgers can be compared decision by decision: a
// decision of one is in the other only when all of it is.
func DecisionKey(d Decision) string {
	d.Ledger = ""
	d.At = d.At.UTC()
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Sprintf("%#v", d)
	}
	return string(b)
}

// AddedDecisions are the decisions of head that base does not hold, counted as a multiset
// (a decision present once in base and twice in head was added once), in head's order.
func AddedDecisions(base, head []Decision) []Decision {
	have := map[string]int{}
	for _, d := range base {
		have[DecisionKey(d)]++
	}
	var out []Decision
	for _, d := range head {
		k := DecisionKey(d)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}
