package experiments

import (
	"fmt"
	"sort"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/train"
)

// engines are the engines a Config can name. The graph engine is the
// default: its losses are Gorgonia graphs that users extend; the handwritten
// engine is the fast path for the built-in objectives.
//
// Nothing else in this package knows which engine it drives: what an engine
// can train it says itself (train.Engine.Check), asked by Config.Validate.
var engines = map[string]train.Engine{
	graph.Name:    graph.Engine{},
	backprop.Name: backprop.Engine{},
}

// DefaultEngine is the engine of DefaultConfig.
const DefaultEngine = graph.Name

// EngineByName returns the engine called name.
func EngineByName(name string) (train.Engine, error) {
	if e, ok := engines[name]; ok {
		return e, nil
	}
	return nil, fmt.Errorf("engine %q: want one of %v", name, EngineNames())
}

// EngineNames lists the engines, sorted.
func EngineNames() []string {
	var n []string
	for k := range engines {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
