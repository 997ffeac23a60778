package schemas_test

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/model"
	"vouch/report"
	"vouch/schemas"
)

// TestReportSupportKeysAreTheRegistry: the report schema admits exactly the registry's
// client ids as support keys, in the registry's order, so adding a client to the
// registry without documenting it in the schema (or the reverse) fails here.
func TestReportSupportKeysAreTheRegistry(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			Properties map[string]struct {
				PropertyNames struct {
					Enum []string `json:"enum"`
				} `json:"propertyNames"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schemas.ReportV1, &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for name, def := range doc.Defs {
		if sp, ok := def.Properties["support"]; ok {
			if got != nil {
				t.Fatalf("more than one support object in the schema (%s)", name)
			}
			got = sp.PropertyNames.Enum
		}
	}
	var want []string
	for _, c := range model.Clients() {
		want = append(want, c.ID)
	}
	if len(got) != len(want) {
		t.Fatalf("schema support keys %v, registry %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("schema support key %d = %q, registry %q", i, got[i], want[i])
		}
	}
}

// TestReportRiskKindsAreTheReport: the report schema's risks kinds are exactly the kinds
// the report lists there, in its order.
func TestReportRiskKindsAreTheReport(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			Properties map[string]struct {
				Items struct {
					Properties map[string]struct {
						Enum []string `json:"enum"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schemas.ReportV1, &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Defs["component"].Properties["risks"].Items.Properties["kind"].Enum
	var want []string
	for _, k := range report.RiskKinds {
		want = append(want, string(k))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("schema risks kinds %v, report %v", got, want)
	}
}
