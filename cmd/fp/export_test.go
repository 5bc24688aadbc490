package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/fpareto/fp/onnxexport/onnxpb"
)

func TestExportCommand(t *testing.T) {
	net, _ := toyNetwork(t)
	out := filepath.Join(t.TempDir(), "net.onnx")
	if _, _, err := runFP(t, "export", "--model", net, "--format", "onnx", "--out", out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var m onnxpb.ModelProto
	if err := proto.Unmarshal(b, &m); err != nil || m.GetGraph().GetInput()[0].GetName() != "features" {
		t.Fatalf("not the ONNX model expected: %v", err)
	}
	_, _, err = runFP(t, "export", "--model", net, "--format", "pmml", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "pmml") {
		t.Errorf("unknown format: err = %v", err)
	}
}
