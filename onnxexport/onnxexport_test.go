package onnxexport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/onnxexport/onnxpb"
	"github.com/fpareto/fp/predict"
)

// compasNetwork is a COMPAS network with its schema and a card, its weights
// drawn at random and scaled up so that scores spread over (0, 1).
func compasNetwork(t *testing.T) (*model.File, *datasets.Dataset) {
	t.Helper()
	d, err := datasets.Load("compas", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, d.N)
	for i := range rows {
		rows[i] = i
	}
	std := datasets.FitStandardizer(d, rows)
	p := model.Init(model.Arch{Layers: 4, Hidden: 4}, d.Dim, rand.New(rand.NewPCG(5, 6)))
	for l := range p.W {
		for k := range p.W[l] {
			p.W[l][k] *= 3
		}
	}
	std.SD[3] = 0 // exercise the constant-input rule
	f := model.NewFile(p, d.Columns, std.Mean, std.SD)
	s := d.Schema
	f.Schema = &s
	f.Card = &model.Card{Dataset: "compas", Method: "cheb", Lambda: 0.5, Config: "abc", Version: "test"}
	return f, d
}

func TestModelStructure(t *testing.T) {
	f, _ := compasNetwork(t)
	b, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var m onnxpb.ModelProto
	if err := proto.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.GetIrVersion() != 8 || len(m.OpsetImport) != 1 || m.OpsetImport[0].GetVersion() != 13 {
		t.Errorf("IR %d, opsets %v", m.GetIrVersion(), m.OpsetImport)
	}
	g := m.GetGraph()
	if len(g.Input) != 1 || g.Input[0].GetName() != Input || len(g.Output) != 2 ||
		g.Output[0].GetName() != OutputScore || g.Output[1].GetName() != OutputLogit {
		t.Errorf("inputs %v, outputs %v", g.Input, g.Output)
	}
	meta := map[string]string{}
	for _, e := range m.MetadataProps {
		meta[e.GetKey()] = e.GetValue()
	}
	var feats []string
	var schema datasets.Schema
	var card model.Card
	if err := json.Unmarshal([]byte(meta[MetaFeatures]), &feats); err != nil || !slices.Equal(feats, f.Features) {
		t.Errorf("features metadata %q (%v)", meta[MetaFeatures], err)
	}
	if err := json.Unmarshal([]byte(meta[MetaSchema]), &schema); err != nil || !slices.Equal(schema.Features(), f.Features) ||
		schema.SensitivePositive != "African-American" {
		t.Errorf("schema metadata %q (%v)", meta[MetaSchema], err)
	}
	if err := json.Unmarshal([]byte(meta[MetaCard]), &card); err != nil || card.Lambda != 0.5 {
		t.Errorf("card metadata %q (%v)", meta[MetaCard], err)
	}
	if meta[MetaInput] != Input {
		t.Errorf("input metadata %q", meta[MetaInput])
	}
	// Deterministic bytes: the same network exports the same file.
	b2, _ := Marshal(f)
	if !bytes.Equal(b, b2) {
		t.Error("two exports differ")
	}
}

// needTool skips, or fails under FP_REQUIRE_ONNX=1, when a tool is missing.
func needTool(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("FP_REQUIRE_ONNX") == "1" {
		t.Fatalf("%s is required (FP_REQUIRE_ONNX=1) but not usable: %v", what, err)
	}
	t.Skipf("%s not usable (%v); .ci/run installs it, FP_REQUIRE_ONNX=1 makes this a failure", what, err)
}

// onnxRuntime checks the ONNX model b with onnx.checker and returns the scores and logits ONNX Runtime gives the n
// encoded rows x of dim inputs. It skips (or fails under FP_REQUIRE_ONNX=1)
// when either tool is missing.
func onnxRuntime(t *testing.T, b []byte, x []float64, n, dim int) (score, logit []float64) {
	t.Helper()
	const python = "/usr/bin/python3" // Debian's python3-onnx is importable by it only
	_, err := exec.Command(python, "-c", "import onnx").CombinedOutput()
	needTool(t, "python3-onnx (Debian)", err)
	nodeModules := os.Getenv("FP_ORT_NODE_MODULES")
	node, err := exec.LookPath("node")
	if err == nil {
		cmd := exec.Command(node, "-e", "require('onnxruntime-node')")
		cmd.Env = append(os.Environ(), "NODE_PATH="+nodeModules)
		if err = cmd.Run(); err != nil {
			err = fmt.Errorf("node cannot load onnxruntime-node with NODE_PATH=%q: %w", nodeModules, err)
		}
	}
	needTool(t, "node with onnxruntime-node (FP_ORT_NODE_MODULES)", err)

	dir := t.TempDir()
	modelPath := filepath.Join(dir, "net.onnx")
	if err := os.WriteFile(modelPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(python, "-c",
		"import onnx, sys; m = onnx.load(sys.argv[1]); onnx.checker.check_model(m, full_check=True); print(m.ir_version, m.opset_import[0].version)",
		modelPath).CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "8 13" {
		t.Fatalf("onnx.checker: %v\n%s", err, out)
	}
	feats, _ := json.Marshal(map[string]any{"n": n, "dim": dim, "x": x[:n*dim]})
	featPath := filepath.Join(dir, "features.json")
	if err := os.WriteFile(featPath, feats, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join("testdata", "ort_score.js"), modelPath, featPath)
	cmd.Env = append(os.Environ(), "NODE_PATH="+nodeModules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("onnxruntime-node: %v\n%s", err, stderr.String())
	}
	var ort struct {
		Inputs, Outputs []string
		Score, Logit    []float64
	}
	if err := json.Unmarshal(out, &ort); err != nil {
		t.Fatal(err)
	}
	if len(ort.Score) != n || len(ort.Logit) != n || !slices.Equal(ort.Inputs, []string{Input}) {
		t.Fatalf("ONNX Runtime gave %d scores, %d logits, inputs %v", len(ort.Score), len(ort.Logit), ort.Inputs)
	}
	return ort.Score, ort.Logit
}

// The exported model passes onnx.checker, and ONNX Runtime scores 1,000
// rows as fp predict does, to 1e-6.
func TestCheckerAndOnnxRuntimeAgreeWithPredict(t *testing.T) {
	f, d := compasNetwork(t)
	const n = 1000
	b, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	ortScore, ortLogit := onnxRuntime(t, b, d.X, n, d.Dim)

	// fp predict on the raw rows.
	var raw strings.Builder
	w := csv.NewWriter(&raw)
	var header []string
	for _, c := range f.Schema.Columns {
		header = append(header, c.Name)
	}
	_ = w.Write(header)
	for i := range n {
		r, err := f.Schema.Raw(d.X[i*d.Dim : (i+1)*d.Dim])
		if err != nil {
			t.Fatal(err)
		}
		_ = w.Write(r)
	}
	w.Flush()
	var scored bytes.Buffer
	if _, err := predict.Run(f, strings.NewReader(raw.String()), "rows.csv", &scored, predict.Options{Threshold: 0.5, Logit: true}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&scored).ReadAll()
	if err != nil {
		t.Fatal(err)
	}

	var worst float64
	lo, hi := 1.0, 0.0
	for i, r := range recs[1:] {
		p, _ := strconv.ParseFloat(r[0], 64)
		z, _ := strconv.ParseFloat(r[2], 64)
		worst = max(worst, math.Abs(p-ortScore[i]), math.Abs(z-ortLogit[i]))
		lo, hi = min(lo, p), max(hi, p)
	}
	if worst > 1e-6 {
		t.Errorf("ONNX Runtime and fp predict differ by up to %g", worst)
	}
	if hi-lo < 0.1 {
		t.Errorf("scores span only [%g, %g]: the comparison says little", lo, hi)
	}
	t.Logf("largest difference %g over %d rows, scores in [%.3f, %.3f]", worst, n, lo, hi)
}

// A λ-conditioned network exports only folded at a λ (model.File.At): the
// model ONNX Runtime runs then computes the conditioned network at that λ
// (model.Conditioned.At), and its card says so.
func TestConditionedNetworkExportsAtLambda(t *testing.T) {
	plain, d := compasNetwork(t)
	p, err := plain.Params()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	c := model.NewConditioned(p, 6, rng)
	for _, v := range [][]float64{c.FiLM.W2, c.FiLM.B2} {
		for i := range v {
			v[i] = rng.NormFloat64() * 0.5 // off the identity, so that λ matters
		}
	}
	f := model.NewConditionedFile(c, plain.Features, plain.Mean, plain.SD)
	f.Schema, f.Card = plain.Schema, &model.Card{Dataset: "compas", Method: "cheb", Config: "abc", Conditioned: true}
	if _, err := Marshal(f); err == nil || !strings.Contains(err.Error(), "--lambda") || strings.Contains(err.Error(), "\n") {
		t.Errorf("export of a conditioned file: err = %v, want one line naming --lambda", err)
	}

	const n = 500
	z := make([]float64, n*d.Dim) // the rows standardized as the file says
	for i := range n {
		for j := range d.Dim {
			if f.SD[j] != 0 {
				z[i*d.Dim+j] = (d.X[i*d.Dim+j] - f.Mean[j]) / f.SD[j]
			}
		}
	}
	var logits [][]float64
	for _, lambda := range []float64{0.02, 0.7} {
		at, err := f.At(lambda)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Marshal(at)
		if err != nil {
			t.Fatal(err)
		}
		var m onnxpb.ModelProto
		if err := proto.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range m.MetadataProps {
			if e.GetKey() != MetaCard {
				continue
			}
			found = true
			var card model.Card
			if err := json.Unmarshal([]byte(e.GetValue()), &card); err != nil || card.Lambda != lambda || !card.Conditioned {
				t.Errorf("λ = %g: card metadata %s (%v)", lambda, e.GetValue(), err)
			}
		}
		if !found {
			t.Errorf("λ = %g: no card metadata", lambda)
		}
		_, got := onnxRuntime(t, b, d.X, n, d.Dim)
		want := make([]float64, n)
		c.At(lambda).Forward(z, n, want)
		var worst float64
		for i := range want {
			worst = max(worst, math.Abs(got[i]-want[i]))
		}
		if worst > 1e-9 {
			t.Errorf("λ = %g: ONNX Runtime and the conditioned network differ by up to %g", lambda, worst)
		}
		logits = append(logits, got)
	}
	var apart float64
	for i := range logits[0] {
		apart = max(apart, math.Abs(logits[0][i]-logits[1][i]))
	}
	if apart < 0.01 {
		t.Errorf("the models at two λ give logits at most %g apart: the conditioning has no effect", apart)
	}
}
