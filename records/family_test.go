package records_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

func TestFamilyStoredOrByRule(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{`{"method":"cheb","penalty":"ato-all"}`, records.FamilyPenalty},
		{`{"method":"linear","penalty":"dp-mean"}`, records.FamilyPenalty},
		{`{"method":"adversarial","penalty":""}`, records.FamilyAdversarial},
		{`{"method":"fairlearn-grid-dp"}`, records.FamilyReductions},
		{`{"method":"fairlearn-expgrad-eo"}`, records.FamilyReductions},
		{`{"method":"fairlearn-threshold-dp-uses-a","uses_sensitive":true}`, records.FamilyThresholds},
		{`{"method":"fairlearn-lr"}`, records.FamilyPenalty},
		{`{"method":"thresholds","penalty":"dp","family":"thresholds","uses_sensitive":true}`, records.FamilyThresholds},
		{`{"method":"reductions","penalty":"eo","family":"reductions"}`, records.FamilyReductions},
	} {
		var r records.Record
		if err := json.Unmarshal([]byte(tc.line), &r); err != nil {
			t.Fatal(err)
		}
		if got := r.Family(); got != tc.want {
			t.Errorf("%s: family %q, want %q", tc.line, got, tc.want)
		}
	}
}

// Every committed record reads as one of the four families, the
// thresholds ones exactly those that use the sensitive attribute.
func TestCommittedRecordsHaveAFamily(t *testing.T) {
	known := map[string]bool{records.FamilyPenalty: true, records.FamilyAdversarial: true,
		records.FamilyReductions: true, records.FamilyThresholds: true}
	n := 0
	err := filepath.WalkDir(filepath.Join("..", "results"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for line := 1; sc.Scan(); line++ {
			var r records.Record
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.Method == "" {
				continue // not a records file (a study's own table)
			}
			n++
			fam := r.Family()
			if !known[fam] {
				t.Errorf("%s:%d: family %q", path, line, fam)
			}
			if (fam == records.FamilyThresholds) != r.UsesSensitive {
				t.Errorf("%s:%d: family %s, uses_sensitive %v", path, line, fam, r.UsesSensitive)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no records under results/")
	}
}

// A group-thresholds candidate has a point only in the (error, decision
// metric) planes; every other candidate has one in every plane.
func TestInPlane(t *testing.T) {
	thr := records.Record{Method: "thresholds", FamilyName: records.FamilyThresholds, UsesSensitive: true}
	red := records.Record{Method: "reductions", FamilyName: records.FamilyReductions}
	for _, tc := range []struct {
		r            records.Record
		axis, metric string
		want         bool
	}{
		{thr, records.AxisError, records.MetricDPDiff, true},
		{thr, records.AxisError, records.MetricEODiff, true},
		{thr, records.AxisRisk, records.MetricDPDiff, false},
		{thr, records.AxisError, records.MetricDP, false},
		{thr, records.AxisRisk, records.MetricATO, false},
		{red, records.AxisRisk, records.MetricATO, true},
		{red, records.AxisError, records.MetricDPDiff, true},
	} {
		if got := tc.r.InPlane(tc.axis, tc.metric); got != tc.want {
			t.Errorf("%s in (%s, %s): %v, want %v", tc.r.Method, tc.axis, tc.metric, got, tc.want)
		}
	}
}
