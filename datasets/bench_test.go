package datasets

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkLoad(b *testing.B) {
	for _, bc := range []struct{ name, preset string }{
		{"compas", ""}, {"adult-sex", PresetPaper}, {"adult-sex", PresetFull},
	} {
		b.Run(bc.name+"/"+bc.preset, func(b *testing.B) {
			for b.Loop() {
				if _, err := Load(bc.name, Options{Preset: bc.preset}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLoadOriginalAdultFull(b *testing.B) {
	dir := "../../shared/data"
	if _, err := Load("adult-sex", Options{Preset: PresetFull, DataDir: dir}); err != nil {
		b.Skipf("original data files not available: %v", err)
	}
	for b.Loop() {
		if _, err := Load("adult-sex", Options{Preset: PresetFull, DataDir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitStandardize(b *testing.B) {
	d, err := Load("adult-sex", Options{Preset: PresetFull})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := d.Split(SplitOptions{}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			b.Fatal(err)
		}
		std := FitStandardizer(d, s.Train)
		_ = std.Apply(d, s.Train)
		_ = std.Apply(d, s.Test)
	}
}
