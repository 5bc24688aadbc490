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
	t.Skipf("%s not usable (%v); .ci/run installs it", what, err)
}

// The exported model passes onnx.checker, and ONNX Runtime scores 1,000
// rows as fp predict does, to 1e-6.
func TestCheckerAndOnnxRuntimeAgreeWithPredict(t *testing.T) {
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

	f, d := compasNetwork(t)
	const n = 1000
	dir := t.TempDir()
	b, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	modelPath := filepath.Join(dir, "net.onnx")
	if err := os.WriteFile(modelPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(python, "-c",
		"import onnx, sys; m = onnx.load(sys.argv[1]); onnx.checker.check_model(m, full_check=True); print(m.ir_version, m.opset_import[0].version)",
		modelPath).CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "8 13" {
		t.Fatalf("onnx.checker: %v\n%s", err, out)
	}

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

	// ONNX Runtime on the encoded rows.
	feats, _ := json.Marshal(map[string]any{"n": n, "dim": d.Dim, "x": d.X[:n*d.Dim]})
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
	var worst float64
	lo, hi := 1.0, 0.0
	for i, r := range recs[1:] {
		p, _ := strconv.ParseFloat(r[0], 64)
		z, _ := strconv.ParseFloat(r[2], 64)
		worst = max(worst, math.Abs(p-ort.Score[i]), math.Abs(z-ort.Logit[i]))
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
