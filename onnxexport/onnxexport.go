package onnxexport

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/onnxexport/onnxpb"
)

// Versions of the exported model.
const (
	IRVersion = 8
	Opset     = 13
)

// Names of the graph's input and outputs.
const (
	Input       = "features"
	OutputScore = "score"
	OutputLogit = "logit"
)

// Metadata keys of the exported model.
const (
	MetaFeatures = "fp.features" // JSON array: the encoded feature names, in input order
	MetaSchema   = "fp.schema"   // JSON: the raw input schema (datasets.Schema)
	MetaCard     = "fp.card"     // JSON: the network's card (model.Card)
	MetaInput    = "fp.input"    // the input's name
	MetaOutputs  = "fp.outputs"  // JSON array: the outputs' names
)

// Model builds the ONNX model of f.
func Model(f *model.File) (*onnxpb.ModelProto, error) {
	if f.UsesGroup() {
		return nil, ErrGroupThresholds
	}
	p, err := f.Params()
	if err != nil {
		return nil, err
	}
	if len(f.Features) != f.Dim {
		return nil, errors.New("export: the network file does not name its features; it cannot be used outside fp")
	}
	g := &onnxpb.GraphProto{Name: proto.String("fp_network")}
	dim := int64(f.Dim)
	g.Input = []*onnxpb.ValueInfoProto{valueInfo(Input, dim)}
	g.Output = []*onnxpb.ValueInfoProto{valueInfo(OutputScore, 1), valueInfo(OutputLogit, 1)}

	// Standardization: ((x − mean) / sd')·keep, with sd' = 1 and keep = 0
	// where sd = 0, which is fp's arithmetic exactly (0 for constant inputs).
	h := Input
	if f.Mean != nil {
		sd, keep := make([]float64, f.Dim), make([]float64, f.Dim)
		for j, s := range f.SD {
			sd[j], keep[j] = s, 1
			if s == 0 {
				sd[j], keep[j] = 1, 0
			}
		}
		g.Initializer = append(g.Initializer,
			tensor("mean", []int64{dim}, f.Mean), tensor("sd", []int64{dim}, sd), tensor("keep", []int64{dim}, keep))
		g.Node = append(g.Node,
			node("Sub", []string{Input, "mean"}, "centred"),
			node("Div", []string{"centred", "sd"}, "scaled"),
			node("Mul", []string{"scaled", "keep"}, "standardized"))
		h = "standardized"
	}
	shapes := p.Arch.Shapes(p.Dim)
	for l, s := range shapes {
		w, b := "W"+strconv.Itoa(l), "b"+strconv.Itoa(l)
		g.Initializer = append(g.Initializer,
			tensor(w, []int64{int64(s.In), int64(s.Out)}, p.W[l]), tensor(b, []int64{int64(s.Out)}, p.B[l]))
		out := "z" + strconv.Itoa(l)
		if l == len(shapes)-1 {
			out = OutputLogit
		}
		g.Node = append(g.Node, node("Gemm", []string{h, w, b}, out))
		h = out
		if l < len(shapes)-1 {
			act := "h" + strconv.Itoa(l)
			g.Node = append(g.Node, node("Relu", []string{out}, act))
			h = act
		}
	}
	g.Node = append(g.Node, node("Sigmoid", []string{OutputLogit}, OutputScore))

	meta := map[string]any{MetaFeatures: f.Features, MetaOutputs: []string{OutputScore, OutputLogit}}
	if f.Schema != nil {
		meta[MetaSchema] = f.Schema
	}
	if f.Card != nil {
		meta[MetaCard] = f.Card
	}
	m := &onnxpb.ModelProto{
		IrVersion:       proto.Int64(IRVersion),
		OpsetImport:     []*onnxpb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(Opset)}},
		ProducerName:    proto.String("fp"),
		ProducerVersion: proto.String(model.Version()),
		DocString: proto.String("A fairness–accuracy front network: input " + Input + " is the encoded, unstandardized feature vector " +
			"(order in " + MetaFeatures + ", raw encoding in " + MetaSchema + "); outputs " + OutputScore + " = P(y=1) and " + OutputLogit + "."),
		Graph: g,
	}
	m.MetadataProps = append(m.MetadataProps, &onnxpb.StringStringEntryProto{Key: proto.String(MetaInput), Value: proto.String(Input)})
	for _, k := range []string{MetaFeatures, MetaOutputs, MetaSchema, MetaCard} {
		v, ok := meta[k]
		if !ok {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("export: %s: %w", k, err)
		}
		m.MetadataProps = append(m.MetadataProps, &onnxpb.StringStringEntryProto{Key: proto.String(k), Value: proto.String(string(b))})
	}
	return m, nil
}

// ErrGroupThresholds refuses a network with group thresholds
// (model.FileFormatThresholds): its decision reads each row's group, which
// the model's input, the encoded features, does not carry.
var ErrGroupThresholds = errors.New("the network decides with thresholds for each group (format fp-network/4), and the ONNX model's input, the encoded features, carries no group: export the base network (its run's networks/split-NNN/base-lambda-0.json, or the base run's λ = 0 network) and apply the rules of the file's group_thresholds to its score")

// Marshal returns the ONNX model of f in its binary protobuf form.
func Marshal(f *model.File) ([]byte, error) {
	m, err := Model(f)
	if err != nil {
		return nil, err
	}
	return proto.MarshalOptions{Deterministic: true}.Marshal(m)
}

func valueInfo(name string, cols int64) *onnxpb.ValueInfoProto {
	return &onnxpb.ValueInfoProto{
		Name: proto.String(name),
		Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{TensorType: &onnxpb.TypeProto_Tensor{
			ElemType: proto.Int32(int32(onnxpb.TensorProto_DOUBLE)),
			Shape: &onnxpb.TensorShapeProto{Dim: []*onnxpb.TensorShapeProto_Dimension{
				{Value: &onnxpb.TensorShapeProto_Dimension_DimParam{DimParam: "N"}},
				{Value: &onnxpb.TensorShapeProto_Dimension_DimValue{DimValue: cols}},
			}},
		}}},
	}
}

func tensor(name string, dims []int64, v []float64) *onnxpb.TensorProto {
	return &onnxpb.TensorProto{Name: proto.String(name), Dims: dims,
		DataType: proto.Int32(int32(onnxpb.TensorProto_DOUBLE)), DoubleData: append([]float64(nil), v...)}
}

func node(op string, in []string, out string) *onnxpb.NodeProto {
	return &onnxpb.NodeProto{OpType: proto.String(op), Input: in, Output: []string{out}, Name: proto.String(out)}
}
