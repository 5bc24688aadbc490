package archtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
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
		"report/runplot", "intervals", "certify", "fairness/bootstrap", "internal/printable", "internal/shellword",
		"candidate", "propensity/propensityfit", "runfolder/conditionedtest", "groupthresholds", "reductions"}
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

// layers is the layer table of docs/architecture.md, from the bottom up: a
// package imports only packages of the layers below its own, never one of
// its own layer or above. Every fp package is in it.
var layers = [][]string{
	// 1. Leaves: they import no fp package.
	{"internal/fuzzcheck", "internal/gemm", "internal/printable", "internal/shellword", "internal/suggest", "onnxexport/onnxpb", "pareto", "records", "reductions"},
	// 2. The data, the vector kernels, the scalarizations as numbers, the
	// command line's one-line usage errors.
	{"internal/cliusage", "internal/vec", "datasets", "scalarize"},
	// 3. The network and its optimizer; the scalarizations as graph code.
	{"model", "optim", "graph/scalarizations"},
	// 4. The metrics, the training contract, the graph layers, figures, export.
	{"fairness", "groupthresholds", "layers", "onnxexport", "report", "train"},
	// 5. Terms, the handwritten engine, the fitted propensity model, the
	// candidates and the statistics every reader shares.
	{"backprop", "candidate", "compare", "fairness/audit", "fairness/bootstrap", "losses", "penalties", "predict", "propensity"},
	// 6. The graph engine, the adversarial baseline, the propensity
	// model's training, the run folder.
	{"adversarial", "graph", "propensity/propensityfit", "runfolder"},
	// 7. The sweep, and what reads run folders: the pick policy and the
	// intervals side by side, neither importing the other.
	{"choose", "enginebench", "experiments", "intervals", "progress", "report/runplot", "runfolder/conditionedtest", "runfolder/configfile"},
	// 8. What combines a pick with its intervals; the small sweeps that
	// tests train (above experiments, which they drive).
	{"certify", "experiments/experimentstest", "report/htmlreport"},
	// 9. The command and the test of this table.
	{"cmd/fp", "internal/archtest"},
}

// mustNotDependOn complements the layer table where a package may sit
// above another and still must not link it, directly or through any other
// package: the readers of run folders build without the trainer, the data
// layer writes no command-line advice, and the rules of the table's "must
// not import" column hold.
var mustNotDependOn = map[string][]string{
	"fairness":                 {"train", "experiments", "penalties", "graph", "backprop"},
	"datasets":                 {"model", "train", "experiments", "internal/shellword"},
	"model":                    {"train", "optim", "experiments"},
	"optim":                    {"model", "train"},
	"train":                    {"graph", "backprop", "penalties", "graph/scalarizations", "losses", "layers", "experiments"},
	"backprop":                 {"graph", "penalties", "graph/scalarizations", "losses", "layers", "experiments"},
	"graph":                    {"backprop", "experiments"},
	"penalties":                {"graph", "backprop", "experiments"},
	"graph/scalarizations":     {"graph", "backprop", "experiments", "train", "penalties", "losses", "layers"},
	"propensity":               {"experiments", "graph", "train", "optim", "scalarize", "propensity/propensityfit"},
	"records":                  {"experiments", "fairness", "train"},
	"pareto":                   {"fairness", "experiments", "records"},
	"report":                   {"experiments", "train", "fairness"},
	"compare":                  {"experiments", "train"},
	"candidate":                {"experiments", "train", "choose", "intervals"},
	"choose":                   {"experiments", "train", "intervals"},
	"predict":                  {"experiments", "train"},
	"onnxexport":               {"experiments", "train"},
	"groupthresholds":          {"experiments", "train"},
	"fairness/audit":           {"experiments", "train"},
	"propensity/propensityfit": {"experiments", "graph"},
	// A run folder is read without the trainer: the reports, the figures,
	// the intervals and the progress display go through runfolder and the
	// fitted propensity model, never the training loop or Adam.
	"runfolder":                 readerBans,
	"runfolder/conditionedtest": readerBans,
	"runfolder/configfile":      readerBans,
	"report/htmlreport":         slices.Concat(readerBans, []string{"scalarize"}),
	"report/runplot":            readerBans,
	"progress":                  readerBans,
	"intervals":                 slices.Concat(readerBans, []string{"choose"}),
	"certify":                   readerBans,
}

var readerBans = []string{"experiments", "graph", "backprop", "penalties", "graph/scalarizations", "losses", "layers",
	"adversarial", "train", "optim", "propensity/propensityfit"}

// mustNotImport are direct imports a package must not make although the
// layer table allows them: the command reaches the trainer through
// experiments, its flags' defaults included.
var mustNotImport = map[string][]string{
	"cmd/fp": {"train", "scalarize"},
}

// testSupport are the packages that build run folders for tests: only
// _test.go files import them, so that no command or library links them.
var testSupport = []string{"experiments/experimentstest", "runfolder/conditionedtest"}

// knownExceptions are imports against the rules that the code still has,
// each with what it is waiting for.
var knownExceptions = map[edge]string{}

// edge is an import: from imports to (fp-relative paths).
type edge struct{ from, to string }

// graphOf is the import graph of fp's own packages: each package's direct,
// non-test imports of fp packages, by fp-relative path.
func graphOf(pkgs map[string]pkg) map[string][]string {
	g := map[string][]string{}
	for name, p := range pkgs {
		g[name] = nil
		for _, d := range p.Imports {
			if rel, ok := strings.CutPrefix(d, module+"/"); ok {
				g[name] = append(g[name], rel)
			}
		}
	}
	return g
}

// layerViolations lists the imports of g that do not run down the layer
// table, and the packages the table leaves out, one line each, sorted;
// the imports in except are allowed.
func layerViolations(g map[string][]string, table [][]string, except map[edge]string) []string {
	layer := map[string]int{}
	for i, row := range table {
		for _, p := range row {
			layer[p] = i + 1
		}
	}
	var out []string
	for from, imps := range g {
		lf, ok := layer[from]
		if !ok {
			out = append(out, fmt.Sprintf("%s is in no layer of the table", from))
			continue
		}
		for _, to := range imps {
			lt, ok := layer[to]
			if !ok || lt < lf {
				continue // a package in no layer is reported once, above
			}
			if _, ok := except[edge{from, to}]; ok {
				continue
			}
			dir := "runs up the layer table"
			if lt == lf {
				dir = "stays within its layer"
			}
			out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): the import %s", from, lf, to, lt, dir))
		}
	}
	slices.Sort(out)
	return out
}

// reach is every package that from depends on in g, directly or not.
func reach(g map[string][]string, from string) map[string]bool {
	seen := map[string]bool{}
	stack := slices.Clone(g[from])
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		stack = append(stack, g[p]...)
	}
	return seen
}

// dependencyViolations lists, sorted, the packages of bans that depend on
// one they must not, directly or through others, and the packages of bans
// that g does not have.
func dependencyViolations(g map[string][]string, bans map[string][]string) []string {
	var out []string
	for name, banned := range bans {
		if _, ok := g[name]; !ok {
			out = append(out, fmt.Sprintf("package %s is missing", name))
			continue
		}
		deps := reach(g, name)
		for _, b := range banned {
			if deps[b] {
				out = append(out, fmt.Sprintf("%s depends on %s", name, b))
			}
		}
	}
	slices.Sort(out)
	return out
}

// importViolations lists, sorted, the direct imports of g that bans
// forbids, less those in except.
func importViolations(g map[string][]string, bans map[string][]string, except map[edge]string) []string {
	var out []string
	for name, banned := range bans {
		for _, to := range g[name] {
			if _, ok := except[edge{name, to}]; ok || !slices.Contains(banned, to) {
				continue
			}
			out = append(out, fmt.Sprintf("%s imports %s", name, to))
		}
	}
	slices.Sort(out)
	return out
}

// internalViolations lists, sorted, the imports by a package under
// internal/ of an fp package outside internal/: the internal packages are
// fp's lowest, used by the others and using none of them.
func internalViolations(g map[string][]string) []string {
	var out []string
	for from, imps := range g {
		if !strings.HasPrefix(from, "internal/") {
			continue
		}
		for _, to := range imps {
			if !strings.HasPrefix(to, "internal/") {
				out = append(out, fmt.Sprintf("%s imports %s, which is not under internal/", from, to))
			}
		}
	}
	slices.Sort(out)
	return out
}

// testSupportViolations lists, sorted, the direct non-test imports in g of
// a package of support.
func testSupportViolations(g map[string][]string, support []string) []string {
	var out []string
	for from, imps := range g {
		for _, to := range imps {
			if slices.Contains(support, to) {
				out = append(out, fmt.Sprintf("%s imports %s, which is for tests only", from, to))
			}
		}
	}
	slices.Sort(out)
	return out
}

// Every import runs down the layer table, and every package is in it.
func TestImportsRunDownTheLayers(t *testing.T) {
	for _, v := range layerViolations(graphOf(listPackages(t)), layers, knownExceptions) {
		t.Error(v)
	}
}

// The packages the table says must not link another do not, through any
// path; the command makes none of the direct imports it must not, but the
// known exceptions.
func TestNoImportRunsBackUp(t *testing.T) {
	g := graphOf(listPackages(t))
	for _, v := range dependencyViolations(g, mustNotDependOn) {
		t.Error(v)
	}
	for _, v := range importViolations(g, mustNotImport, knownExceptions) {
		t.Error(v)
	}
}

// The packages that build run folders for tests are imported by tests
// only.
func TestTestSupportOnlyInTests(t *testing.T) {
	pkgs := listPackages(t)
	for _, name := range testSupport {
		if _, ok := pkgs[name]; !ok {
			t.Errorf("package %s is missing", name)
		}
	}
	for _, v := range testSupportViolations(graphOf(pkgs), testSupport) {
		t.Error(v)
	}
}

// No package under internal/ imports an fp package outside it.
func TestInternalImportsOnlyInternal(t *testing.T) {
	for _, v := range internalViolations(graphOf(listPackages(t))) {
		t.Error(v)
	}
}

// The rules themselves, on synthetic graphs: each forbidden edge is
// reported, and the allowed ones are not.
func TestRulesCatchForbiddenImports(t *testing.T) {
	table := [][]string{{"records", "internal/shellword"}, {"datasets"}, {"train", "propensity"}, {"runfolder", "propensity/propensityfit"}, {"choose", "intervals"}, {"cmd/fp"}}
	base := map[string][]string{
		"records": nil, "internal/shellword": nil, "datasets": {"records"}, "train": {"datasets"},
		"propensity": {"datasets"}, "propensity/propensityfit": {"propensity", "train"},
		"runfolder": {"propensity", "records"}, "choose": {"records"}, "intervals": {"runfolder"},
		"cmd/fp": {"intervals", "choose", "propensity/propensityfit", "train"},
	}
	with := func(from string, to ...string) map[string][]string {
		g := map[string][]string{}
		for k, v := range base {
			g[k] = slices.Clone(v)
		}
		if _, ok := g[from]; !ok {
			g[from] = nil
		}
		g[from] = append(g[from], to...)
		return g
	}
	bans := map[string][]string{"runfolder": {"train"}, "datasets": {"internal/shellword"}}
	cmdBans := map[string][]string{"cmd/fp": {"train"}}
	check := func(name string, got []string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	check("base, layers", layerViolations(base, table, nil))
	check("base, dependencies", dependencyViolations(base, bans))
	check("base, internal", internalViolations(base))
	check("up", layerViolations(with("datasets", "propensity"), table, nil),
		"datasets (layer 2) imports propensity (layer 3): the import runs up the layer table")
	check("sideways", layerViolations(with("intervals", "choose"), table, nil),
		"intervals (layer 5) imports choose (layer 5): the import stays within its layer")
	check("sideways, excepted", layerViolations(with("intervals", "choose"), table, map[edge]string{{"intervals", "choose"}: "test"}))
	check("not in the table", layerViolations(with("newpkg", "records"), table, nil), "newpkg is in no layer of the table")
	check("reader linking the trainer", dependencyViolations(with("runfolder", "propensity/propensityfit"), bans),
		"runfolder depends on train")
	check("data writing advice", dependencyViolations(with("datasets", "internal/shellword"), bans),
		"datasets depends on internal/shellword")
	check("banned package missing", dependencyViolations(base, map[string][]string{"gone": {"train"}}), "package gone is missing")
	check("direct ban", importViolations(base, cmdBans, nil), "cmd/fp imports train")
	check("direct ban, excepted", importViolations(base, cmdBans, map[edge]string{{"cmd/fp", "train"}: "test"}))
	support := with("runfolder/conditionedtest", "runfolder")
	check("test support, its own imports", testSupportViolations(support, []string{"runfolder/conditionedtest"}))
	support["intervals"] = append(support["intervals"], "runfolder/conditionedtest")
	check("test support imported", testSupportViolations(support, []string{"runfolder/conditionedtest"}),
		"intervals imports runfolder/conditionedtest, which is for tests only")
	check("internal reaching out", internalViolations(with("internal/shellword", "records")),
		"internal/shellword imports records, which is not under internal/")
}

// The kernels and the text helpers are leaves: they import no fp package
// (the vector kernels only the matrix products), so that any package may
// use them without a cycle.
func TestLeavesImportNoFpPackage(t *testing.T) {
	pkgs := listPackages(t)
	allowed := map[string]string{"internal/vec": module + "/internal/gemm"}
	for _, name := range []string{"internal/gemm", "internal/vec", "internal/printable", "internal/shellword", "reductions"} {
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
