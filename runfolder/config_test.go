package runfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Claim writes config.json once, accepts the same configuration again and
// refuses another one, naming what differs.
func TestClaim(t *testing.T) {
	dir := t.TempDir()
	c := Config{Dataset: "compas", Method: MethodCheb, Penalty: "ato-penultimate", Lambdas: "log:5", Splits: 2, Epochs: 10, Seed: 1}
	if err := Claim(dir, c); err != nil {
		t.Fatal(err)
	}
	got, err := ReadConfig(dir)
	if err != nil || got.Digest() != c.Digest() {
		t.Fatalf("read back %+v, %v", got, err)
	}
	// The data folder and the coding are not part of what the folder is for.
	same := c
	same.DataDir, same.Coding = "/data", &Coding{Target: "y"}
	if err := Claim(dir, same); err != nil {
		t.Errorf("the same configuration: %v", err)
	}
	other := c
	other.Epochs = 20
	if err := Claim(dir, other); err == nil || !strings.Contains(err.Error(), "epochs: 10 → 20") {
		t.Errorf("another configuration: err = %v, want the difference named", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Claim(dir, c); err == nil || !strings.Contains(err.Error(), "not an fp configuration") {
		t.Errorf("a torn config.json: err = %v", err)
	}
	if _, err := ReadConfig(t.TempDir()); err == nil || !strings.Contains(err.Error(), "read configuration") {
		t.Errorf("no config.json: err = %v", err)
	}
}

func TestDataFile(t *testing.T) {
	write := func(cfg string) string {
		dir := t.TempDir()
		if cfg != "" {
			if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for _, tc := range []struct{ name, cfg, want string }{
		{"csv", `{"csv": "data/loans.csv"}`, "data/loans.csv"},
		{"built-in", `{"dataset": "compas"}`, "compas-scores-two-years.csv"},
		{"no configuration", "", ""},
		{"unreadable configuration", `{"csv": `, ""},
	} {
		if got := DataFile(write(tc.cfg)); got != tc.want {
			t.Errorf("%s: DataFile = %q, want %q", tc.name, got, tc.want)
		}
	}
}
