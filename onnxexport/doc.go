// Package onnxexport writes a stored network as a standard ONNX model, so
// that it runs outside fp (ONNX Runtime, onnx's reference evaluator, …).
//
// The model takes the encoded, unstandardized feature vector ("features",
// N×Dim doubles, in the order of the metadata's fp.features) and computes
// what fp predict does: the standardization, the network, its logit
// ("logit", N×1) and probability ("score", N×1). The raw input schema
// (source columns, vocabularies, dropped levels, the 0/1 coding of target
// and sensitive attribute) and the network's card are in the model's
// metadata as JSON, so that a consumer can encode raw rows without fp.
//
// The model uses opset 13 and IR version 8, which ONNX 1.12 and later check.
package onnxexport
