package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Column names reach the terminal whole and harmless: a name holding an
// escape sequence is printed escaped (the coding line, the overlap
// warning, fp predict's last line, an error naming the column), and a
// name holding "=" is not cut there.
func TestColumnNamesPrintedWholeAndEscaped(t *testing.T) {
	const esc = "\x1b[31m"
	target, sensitive, note := "y"+esc, "g"+esc, "note"+esc
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	fmt.Fprintf(&b, "x1,income=high,%s,%s,%s\n", note, sensitive, target)
	for range 400 {
		g := rng.IntN(2)
		x1 := rng.NormFloat64()
		y := 0
		if x1+0.5*rng.NormFloat64() > 0 {
			y = 1
		}
		// income=high copies the sensitive attribute: poor overlap.
		fmt.Fprintf(&b, "%.4f,%d,%s,%d,%d\n", x1, g, []string{"a", "b=c"}[rng.IntN(2)], g, y)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	stdout, stderr, err := runFP(t, "train", "--data", data, "--target", target, "--sensitive", sensitive,
		"--splits", "1", "--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--no-plot", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	all := stdout + stderr
	if want := `coding: y = 1 means y\x1b[31m = "1"; a = 1 means g\x1b[31m = "1"`; !strings.Contains(all, want) {
		t.Errorf("no line %q in\n%s", want, all)
	}
	if want := "best are income=high (|r| = 1.00)"; !strings.Contains(stderr, want) {
		t.Errorf("the overlap warning does not name income=high whole (%q):\n%s", want, stderr)
	}

	nets, _ := filepath.Glob(filepath.Join(out, "networks", "split-000", "*.json"))
	if len(nets) == 0 {
		t.Fatal("no network written")
	}
	_, perr, err := runFP(t, "predict", "--model", nets[0], "--data", data, "--out", filepath.Join(dir, "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `score is P(y\x1b[31m = "1")`; !strings.Contains(perr, want) {
		t.Errorf("fp predict: no %q in %q", want, perr)
	}
	all += perr

	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("x1,income=high,"+note+"\n0.5,1,zzz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runFP(t, "predict", "--model", nets[0], "--data", bad)
	if err == nil || !strings.Contains(err.Error(), `column 3 (note\x1b[31m)`) {
		t.Fatalf("bad row: err = %v, want it to name column 3 escaped", err)
	}
	all += err.Error()
	missing := filepath.Join(dir, "missing.csv")
	if err := os.WriteFile(missing, []byte("x1,"+note+",y,g\n1,a,0,0\n2,b,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runFP(t, "train", "--data", missing, "--target", target, "--sensitive", "g", "--out", filepath.Join(dir, "r2"))
	if err == nil || !strings.Contains(err.Error(), `note\x1b[31m`) {
		t.Fatalf("missing column: err = %v, want the header listed escaped", err)
	}
	all += err.Error()
	if strings.Contains(all, "\x1b") {
		t.Errorf("an escape character reached the output:\n%q", all)
	}
}

// Group values, a --group-map's names and a column name holding ESC, BEL or
// U+202E reach the terminal escaped in every printer that shows them: the
// --exclude hint (pasteable: $'…'), train's overlap and group lines,
// fp status, fp front and fp audit's group table.
func TestGroupNamesPrintedEscaped(t *testing.T) {
	const rlo = "\u202e"
	rng := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	fmt.Fprintf(&b, "y,id\x1b[31m,inc\x07,grp%s\n", rlo)
	for i := range 400 {
		fmt.Fprintf(&b, "%d,%d,%d,%s\n", rng.IntN(2), i+1, rng.IntN(100), []string{"a" + rlo, "b\x1b[1m", "c\x07"}[rng.IntN(3)])
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	stdout, stderr, err := runFP(t, "train", "--data", data, "--target", "y", "--sensitive", "grp"+rlo, "--sensitive-levels", "all",
		"--group-map", "c\x07=z\x1b[2m", "--splits", "1", "--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--no-plot", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	all := stdout + stderr
	for _, want := range []string{`--exclude $'id\x1b[31m'`, `ESS z\x1b[2m`, `ESS a\u202e`} {
		if !strings.Contains(all, want) {
			t.Errorf("fp train: no %q in\n%s", want, all)
		}
	}
	for _, args := range [][]string{{"status", out}, {"front", out}} {
		o, e, err := runFP(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		all += o + e
	}
	nets, _ := filepath.Glob(filepath.Join(out, "networks", "split-000", "*.json"))
	if len(nets) == 0 {
		t.Fatal("no network written")
	}
	scores := filepath.Join(dir, "scores.csv")
	if _, _, err := runFP(t, "predict", "--model", nets[0], "--data", data, "--keep-coded", "--out", scores); err != nil {
		t.Fatal(err)
	}
	o, e, err := runFP(t, "audit", "--data", scores, "--score", "score", "--label", "y_coded", "--group", "group_coded")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(o, `b\x1b[1m`) {
		t.Errorf("fp audit: no escaped group in\n%s", o)
	}
	all += o + e
	if strings.ContainsAny(all, "\x1b\x07"+rlo) {
		t.Errorf("a control character reached the output:\n%q", all)
	}
}
