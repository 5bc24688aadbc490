package optim

import (
	"encoding/json"
	"math"
)

// PlateauConfig configures ReduceLROnPlateau in mode "min" with a relative
// threshold. DefaultPlateau is PyTorch's default except factor and patience,
// which are the paper's (0.9, 10).
type PlateauConfig struct {
	Factor    float64 // multiply the rate by this on a plateau
	Patience  int     // epochs without improvement tolerated
	Threshold float64 // relative: a value improves if it is < best·(1−Threshold)
	Cooldown  int     // epochs to wait after a reduction
	MinLR     float64 // never go below this
	Eps       float64 // a reduction smaller than this is not applied
}

// DefaultPlateau is docs/method.md §5's schedule.
var DefaultPlateau = PlateauConfig{Factor: 0.9, Patience: 10, Threshold: 1e-4, Eps: 1e-8}

// Plateau is the scheduler's explicit state, as in PyTorch's ReduceLROnPlateau.
type Plateau struct {
	Config   PlateauConfig
	Best     float64 // best value seen (+Inf before the first epoch)
	Bad      int     // consecutive epochs without improvement
	Cooldown int     // epochs of cooldown left
}

// NewPlateau returns a scheduler with no history.
func NewPlateau(c PlateauConfig) *Plateau {
	return &Plateau{Config: c, Best: math.Inf(1)}
}

// Step records an epoch's value and returns the learning rate to use next,
// given the current one: lr·Factor (not below MinLR) when the value has not
// improved for more than Patience epochs, else lr unchanged.
func (p *Plateau) Step(value, lr float64) float64 {
	if value < p.Best*(1-p.Config.Threshold) {
		p.Best = value
		p.Bad = 0
	} else {
		p.Bad++
	}
	if p.Cooldown > 0 {
		p.Cooldown--
		p.Bad = 0
	}
	if p.Bad > p.Config.Patience {
		next := math.Max(lr*p.Config.Factor, p.Config.MinLR)
		if lr-next > p.Config.Eps {
			lr = next
		}
		p.Cooldown = p.Config.Cooldown
		p.Bad = 0
	}
	return lr
}

// plateauJSON is Plateau as JSON holds it: Best null before the first
// epoch, for JSON has no infinity.
type plateauJSON struct {
	Config   PlateauConfig
	Best     *float64
	Bad      int
	Cooldown int
}

// MarshalJSON writes p with Best null while it is +Inf (no epoch seen), so
// that a checkpoint of a scheduler that has not stepped can be written.
func (p Plateau) MarshalJSON() ([]byte, error) {
	j := plateauJSON{Config: p.Config, Bad: p.Bad, Cooldown: p.Cooldown}
	if !math.IsInf(p.Best, 0) && !math.IsNaN(p.Best) {
		j.Best = &p.Best
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes: Best null is +Inf.
func (p *Plateau) UnmarshalJSON(b []byte) error {
	var j plateauJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = Plateau{Config: j.Config, Best: math.Inf(1), Bad: j.Bad, Cooldown: j.Cooldown}
	if j.Best != nil {
		p.Best = *j.Best
	}
	return nil
}
