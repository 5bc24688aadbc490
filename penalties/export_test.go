package penalties

// AtTemperature is dp-mv or eo-mv (or their R-group forms) at temperature
// temp instead of MVTemperature, for the tests of the limit T → 0.
func AtTemperature(p Penalty, temp float64) Penalty {
	switch q := p.(type) {
	case mvPenalty:
		q.temp = temp
		return q
	case groupMV:
		q.temp = temp
		return q
	}
	panic("AtTemperature: " + p.Name() + " has no temperature")
}
