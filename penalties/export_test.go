package penalties

// AtTemperature is dp-mv, eo-mv, dp-rate or eo-rate (or their R-group
// forms) at temperature temp instead of MVTemperature or RateTemperature,
// for the tests of the limit T → 0.
func AtTemperature(p Penalty, temp float64) Penalty {
	switch q := p.(type) {
	case mvPenalty:
		q.temp = temp
		return q
	case groupMV:
		q.temp = temp
		return q
	case ratePenalty:
		q.temp = temp
		return q
	case groupRate:
		q.temp = temp
		return q
	}
	panic("AtTemperature: " + p.Name() + " has no temperature")
}
