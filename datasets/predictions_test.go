package datasets

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestReadPredictions(t *testing.T) {
	for _, tc := range []struct {
		name         string
		text         string
		cols         PredictionColumns
		p, z, y, a   []float64
		e            []float64
		label, group Coding
	}{
		{
			name: "text values, later in sorted order or yes is 1",
			text: "id,s,y,sex\n1,0.1,yes,F\n2,0.9,no,M\n3,0.5,yes,M\n",
			cols: PredictionColumns{Score: "s", Label: "y", Group: "sex"},
			p:    []float64{0.1, 0.9, 0.5}, y: []float64{1, 0, 1}, a: []float64{0, 1, 1},
			label: Coding{"yes", "no"}, group: Coding{"M", "F"},
		},
		{
			name: "numbers compared as numbers",
			text: "s,y,g\n0.2,1.0,10\n0.3,0,9\n0.4,1,9\n",
			cols: PredictionColumns{Score: "s", Label: "y", Group: "g"},
			p:    []float64{0.2, 0.3, 0.4}, y: []float64{1, 0, 1}, a: []float64{1, 0, 0},
			label: Coding{"1", "0"}, group: Coding{"10", "9"},
		},
		{
			name: "logits, propensities and a one-valued label",
			text: "z,y,g,e\n-3.5,1,a,0.5\n12,1,b,0.25\n",
			cols: PredictionColumns{Logit: "z", Label: "y", Group: "g", Propensity: "e"},
			z:    []float64{-3.5, 12}, y: []float64{1, 1}, a: []float64{0, 1}, e: []float64{0.5, 0.25},
			label: Coding{"1", "0"}, group: Coding{"b", "a"},
		},
		{
			name: "TRUE in any case is 1",
			text: "s,y,g\n0.5,TRUE,x\n0.5,false,y\n",
			cols: PredictionColumns{Score: "s", Label: "y", Group: "g"},
			p:    []float64{0.5, 0.5}, y: []float64{1, 0}, a: []float64{0, 1},
			label: Coding{"TRUE", "false"}, group: Coding{"y", "x"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadPredictions(writeCSV(t, tc.text), tc.cols)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name      string
				got, want []float64
			}{{"p", got.P, tc.p}, {"z", got.Z, tc.z}, {"y", got.Y, tc.y}, {"a", got.A, tc.a}, {"e", got.E, tc.e}} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			if got.Label != tc.label || got.Group != tc.group {
				t.Errorf("coded: label %+v group %+v, want %+v %+v", got.Label, got.Group, tc.label, tc.group)
			}
		})
	}
}

// The predictions reader codes a column as LoadCSV codes a target.
func TestReadPredictionsCodesAsLoadCSV(t *testing.T) {
	for _, vals := range [][2]string{{"no", "yes"}, {"b", "a"}, {"2", "10"}, {"True", "False"}, {"x", "1"}} {
		text := "f,y,g\n1," + vals[0] + ",m\n2," + vals[1] + ",f\n3," + vals[0] + ",f\n"
		d, err := LoadCSV(writeCSV(t, text), CSVOptions{Target: "y", Sensitive: "g"})
		if err != nil {
			t.Fatal(err)
		}
		pr, err := ReadPredictions(writeCSV(t, strings.Replace(text, "f,y,g", "z,y,g", 1)), PredictionColumns{Logit: "z", Label: "y", Group: "g"})
		if err != nil {
			t.Fatal(err)
		}
		if pr.Label.Positive != d.LabelPositive || pr.Group.Positive != d.GroupPositive || !reflect.DeepEqual(pr.Y, d.Y) {
			t.Errorf("values %v: predictions code %q/%q, LoadCSV %q/%q", vals, pr.Label.Positive, pr.Group.Positive, d.LabelPositive, d.GroupPositive)
		}
	}
}

func TestReadPredictionsErrors(t *testing.T) {
	cols := PredictionColumns{Score: "s", Label: "y", Group: "g"}
	for _, tc := range []struct {
		name, text string
		cols       PredictionColumns
		kind       error
		want       string
	}{
		{"missing column", "p,y,g\n0.5,1,0\n", cols, ErrMissingColumn, `line 1: column not found: no column "s" in the header (columns: p, y, g)`},
		{"duplicate", "s,y,g,s\n0.5,1,0,0.5\n", cols, nil, "line 1, column 4 (s): duplicate column name (also column 1)"},
		{"score range", "s,y,g\n0.5,1,0\n1.5,0,1\n", cols, ErrBadValue, "line 3, column 1 (s): unexpected value: 1.5 is outside [0, 1]"},
		{"logit not finite", "z,y,g\nInf,1,0\n", PredictionColumns{Logit: "z", Label: "y", Group: "g"}, ErrNotFinite, "line 2, column 1 (z)"},
		{"third value", "s,y,g\n0.5,1,0\n0.5,1,1\n0.5,1,2\n", cols, ErrNotBinary, `line 4, column 3 (g): expected exactly two distinct values: a third value "2" after "0" and "1"`},
		{"one group", "s,y,g\n0.5,1,0\n", cols, ErrEmptyGroup, "column 3 (g)"},
		{"empty label", "s,y,g\n0.5,,0\n", cols, ErrEmptyCell, "line 2, column 2 (y)"},
		{"no weight", "s,y,g,e\n0.5,1,0,0\n0.5,1,1,0.5\n", PredictionColumns{Score: "s", Label: "y", Group: "g", Propensity: "e"},
			ErrBadValue, `column 4 (e): unexpected value: every row of group "0" (a=0) has propensity 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeCSV(t, tc.text)
			_, err := ReadPredictions(path, tc.cols)
			if err == nil {
				t.Fatal("accepted")
			}
			if tc.kind != nil && !errors.Is(err, tc.kind) {
				t.Errorf("error %v is not %v", err, tc.kind)
			}
			if !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q after the file name", err, tc.want)
			}
		})
	}
	if _, err := ReadPredictions("x.csv", PredictionColumns{Score: "s", Logit: "z", Label: "y", Group: "g"}); err == nil {
		t.Error("both a score and a logit column accepted")
	}
}

func TestReadPredictionsDecisionAndTolerance(t *testing.T) {
	for _, c := range []struct {
		name, csv string
		cols      PredictionColumns
		wantP     []float64
		wantD     []float64
		wantErr   string
	}{
		{"rounding of a mixture is clipped", "s,y,g\n1.0000000000000018,1,0\n-1e-15,0,1\n",
			PredictionColumns{Score: "s", Label: "y", Group: "g"}, []float64{1, 0}, nil, ""},
		{"a real violation is refused", "s,y,g\n1.000000001,1,0\n0.5,0,1\n",
			PredictionColumns{Score: "s", Label: "y", Group: "g"}, nil, nil, "line 2, column 1 (s): unexpected value: 1.000000001 is outside [0, 1]"},
		{"a decision column alone is the score too", "d,y,g\n0.25,1,0\n1.0000000000000018,0,1\n",
			PredictionColumns{Decision: "d", Label: "y", Group: "g"}, []float64{0.25, 1}, []float64{0.25, 1}, ""},
		{"a decision column beside scores", "s,d,y,g\n0.7,1,1,0\n0.2,0.5,0,1\n",
			PredictionColumns{Score: "s", Decision: "d", Label: "y", Group: "g"}, []float64{0.7, 0.2}, []float64{1, 0.5}, ""},
		{"a decision outside [0, 1]", "d,y,g\n2,1,0\n0,0,1\n",
			PredictionColumns{Decision: "d", Label: "y", Group: "g"}, nil, nil, "expected a decision probability"},
		{"score and logit", "s,y,g\n", PredictionColumns{Score: "s", Logit: "s", Label: "y", Group: "g"}, nil, nil, "not both"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := ReadPredictionsFrom(strings.NewReader(c.csv), "p.csv", c.cols)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pr.P, c.wantP) || !slices.Equal(pr.D, c.wantD) {
				t.Errorf("P %v, D %v; want %v, %v", pr.P, pr.D, c.wantP, c.wantD)
			}
		})
	}
}
