package archtest

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/fpareto/fp"

// pkg is the part of `go list -json` the rules read.
type pkg struct {
	ImportPath string
	Name       string
	Doc        string
	GoFiles    []string
	Imports    []string // direct, non-test
	Deps       []string // transitive, non-test
}

// listPackages runs `go list -deps=false -json ./...` from the module root.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"/...")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs[strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")] = p
	}
	return pkgs
}

func gorgonia(paths []string) []string {
	var g []string
	for _, p := range paths {
		if strings.HasPrefix(p, "gorgonia.org/") {
			g = append(g, p)
		}
	}
	return g
}

// The packages that compute numbers, store them, draw them or train with
// handwritten gradients must build without Gorgonia, directly or
// transitively; experiments may reach it only through the engines and the
// graph packages, never by importing it itself.
func TestNoGorgoniaWhereTheMapForbidsIt(t *testing.T) {
	pkgs := listPackages(t)
	noDeps := []string{"datasets", "fairness", "fairness/audit", "pareto", "records", "report",
		"compare", "choose", "predict", "onnxexport", "internal/gemm", "internal/vec", "model",
		"train", "backprop", "propensity", "optim", "scalarize", "runfolder", "progress", "report/htmlreport",
		"report/runplot", "intervals", "certify", "fairness/bootstrap", "internal/printable", "internal/shellword"}
	for _, name := range noDeps {
		p, ok := pkgs[name]
		if !ok {
			t.Errorf("package %s is missing", name)
			continue
		}
		if g := gorgonia(p.Deps); len(g) > 0 {
			t.Errorf("%s depends on %s; it must build without Gorgonia", name, strings.Join(g, ", "))
		}
	}
	for _, name := range []string{"experiments", "cmd/fp"} {
		p, ok := pkgs[name]
		if !ok {
			t.Errorf("package %s is missing", name)
			continue
		}
		if g := gorgonia(p.Imports); len(g) > 0 {
			t.Errorf("%s imports %s; it must reach Gorgonia only through the engines", name, strings.Join(g, ", "))
		}
	}
}

// The layering runs one way: the lower packages never import the ones that
// drive them.
func TestNoImportRunsBackUp(t *testing.T) {
	pkgs := listPackages(t)
	rules := map[string][]string{
		"fairness":       {"train", "experiments", "penalties", "graph", "backprop"},
		"datasets":       {"model", "train", "experiments"},
		"model":          {"train", "optim", "experiments"},
		"optim":          {"model", "train"},
		"train":          {"graph", "backprop", "penalties", "scalarizations", "losses", "layers", "experiments"},
		"backprop":       {"graph", "penalties", "scalarizations", "losses", "layers", "experiments"},
		"graph":          {"backprop", "experiments"},
		"penalties":      {"graph", "backprop", "experiments"},
		"scalarizations": {"graph", "backprop", "experiments", "train", "penalties", "losses", "layers"},
		"propensity":     {"experiments", "graph"},
		"records":        {"experiments", "fairness", "train"},
		"pareto":         {"fairness", "experiments", "records"},
		"report":         {"experiments", "train", "fairness"},
		"compare":        {"experiments", "train"},
		"choose":         {"experiments", "train"},
		"predict":        {"experiments", "train"},
		"onnxexport":     {"experiments", "train"},
		"fairness/audit": {"experiments", "train"},
		// A run folder is read without the trainer: the reports, the
		// figures and the progress display go through runfolder.
		"runfolder":         {"experiments", "graph", "backprop", "penalties", "scalarizations", "losses", "layers", "adversarial"},
		"report/htmlreport": {"experiments", "graph", "backprop", "penalties", "scalarizations", "losses", "layers", "adversarial"},
		"report/runplot":    {"experiments", "graph", "backprop", "penalties", "scalarizations", "losses", "layers", "adversarial"},
		"progress":          {"experiments", "graph", "backprop", "penalties", "scalarizations", "losses", "layers", "adversarial"},
		"intervals":         {"experiments", "graph", "backprop", "penalties", "scalarizations", "losses", "layers", "adversarial"},
		"certify":           {"experiments", "graph", "backprop", "penalties", "scalarizations", "losses", "layers", "adversarial"},
	}
	for name, banned := range rules {
		p, ok := pkgs[name]
		if !ok {
			t.Errorf("package %s is missing", name)
			continue
		}
		for _, b := range banned {
			for _, d := range p.Deps {
				if d == module+"/"+b {
					t.Errorf("%s depends on %s", name, b)
				}
			}
		}
	}
}

// The kernels and the text helpers are leaves: they import no fp package
// (the vector kernels only the matrix products), so that any package may
// use them without a cycle.
func TestLeavesImportNoFpPackage(t *testing.T) {
	pkgs := listPackages(t)
	allowed := map[string]string{"internal/vec": module + "/internal/gemm"}
	for _, name := range []string{"internal/gemm", "internal/vec", "internal/printable", "internal/shellword"} {
		p, ok := pkgs[name]
		if !ok {
			t.Errorf("package %s is missing", name)
			continue
		}
		for _, d := range p.Imports {
			if strings.HasPrefix(d, module+"/") && d != allowed[name] {
				t.Errorf("%s imports %s; it must import no fp package", name, d)
			}
		}
	}
}

// Every package says its one job in the first sentence of its doc comment.
func TestEveryPackageStatesItsJob(t *testing.T) {
	for name, p := range listPackages(t) {
		if len(p.GoFiles) == 0 {
			continue
		}
		want := "Package " + p.Name + " "
		if p.Name == "main" {
			want = "Command "
		}
		if !strings.HasPrefix(p.Doc, want) {
			t.Errorf("%s: doc %q, want a first sentence starting %q", name, p.Doc, want)
		}
	}
}
