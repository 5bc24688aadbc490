// Package onnxpb holds the Go types of the ONNX protobuf schema, generated
// from onnx/onnx.proto (ONNX's own file, Apache-2.0, kept beside) with
// protoc-gen-go v1.28.0, the version of the protobuf runtime fp uses.
//
// To regenerate (protoc from Debian's protobuf-compiler):
//
//	go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.28.0
//	go generate ./onnxexport/onnxpb
package onnxpb

//go:generate protoc --go_out=. --go_opt=paths=source_relative --go_opt=Monnx/onnx.proto=github.com/fpareto/fp/onnxexport/onnxpb onnx/onnx.proto
//go:generate mv onnx/onnx.pb.go .
