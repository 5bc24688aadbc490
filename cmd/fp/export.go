package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/onnxexport"
	"github.com/fpareto/fp/runfolder"
)

func init() { register(exportCommand()) }

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a stored network in a standard format (ONNX)",
		Description: "Writes the network and its standardization as an ONNX model (opset 13, IR version 8). Its\n" +
			"input \"features\" is the encoded, unstandardized feature vector (N×dim doubles); its outputs are\n" +
			"\"score\" (the probability) and \"logit\". The metadata holds the feature order (fp.features), the raw\n" +
			"input schema with vocabularies and dropped levels (fp.schema) and the network's card (fp.card).\n" +
			"A λ-conditioned network (format fp-network/3) is written as the plain network it computes at\n" +
			"--lambda L, which it then requires; its card then has lambda L and conditioned true.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "model", Required: true, Usage: "network file"},
			lambdaFlag(),
			&cli.StringFlag{Name: "format", Value: "onnx", Usage: "output format: onnx"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "output file, e.g. net.onnx"},
		},
		Action: runExport,
	}
}

func runExport(c *cli.Context) error {
	if f := c.String("format"); f != "onnx" {
		return fmt.Errorf("export: --format %q: want onnx", f)
	}
	if err := runfolder.CheckOut("export", "--out", c.String("out"), runfolder.Input{Flag: "--model", Path: c.String("model")}); err != nil {
		return err
	}
	f, err := loadModel(c, "export")
	if err != nil {
		return err
	}
	b, err := onnxexport.Marshal(f)
	if err != nil {
		return fmt.Errorf("export: %s: %w", c.String("model"), err)
	}
	if err := model.WriteFileAtomic(c.String("out"), b); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(c.App.ErrWriter, "fp: wrote %s (ONNX, opset %d, input %q, outputs %q and %q)\n",
		c.String("out"), onnxexport.Opset, onnxexport.Input, onnxexport.OutputScore, onnxexport.OutputLogit)
	return nil
}
