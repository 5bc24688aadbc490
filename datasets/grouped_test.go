package datasets

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReadGroupedPredictions(t *testing.T) {
	// The propensity columns come in another order than the groups; the
	// numbers 1.0 and 1 are one value; age sorts as numbers.
	const text = "z,y,age,sex,propensity_10 × M,propensity_1 × F,propensity_2 × M,other\n" +
		"0.5,no,1.0,F,0.2,0.5,0.3,x\n" +
		"-1,yes,10,M,0.6,0.1,0.3,x\n" +
		"2,no,2,M,0.25,0.25,0.5,x\n" +
		"0,yes,1,F,0.1,0.8,0.1,x\n"
	cols := GroupColumns{Logit: "z", Label: "y", Groups: []string{"age", "sex"}}
	fromFile, err := ReadGroupedPredictions(writeCSV(t, text), cols)
	if err != nil {
		t.Fatal(err)
	}
	fromReader, err := ReadGroupedPredictionsFrom(strings.NewReader(text), "standard input", cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*GroupedPredictions{fromFile, fromReader} {
		want := &GroupedPredictions{
			File:    got.File,
			Z:       []float64{0.5, -1, 2, 0},
			Y:       []float64{0, 1, 0, 1},
			G:       []int{0, 2, 1, 0},
			Groups:  []string{"1 × F", "2 × M", "10 × M"},
			Columns: []string{"age", "sex"},
			E:       []float64{0.5, 0.3, 0.2, 0.1, 0.3, 0.6, 0.25, 0.5, 0.25, 0.8, 0.1, 0.1},
			Label:   Coding{"yes", "no"},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("read\n%+v\nwant\n%+v", got, want)
		}
		if note := got.CodingNote(); note != "label: \"yes\" coded as 1, \"no\" as 0\n" {
			t.Errorf("coding note %q", note)
		}
	}
	// Without propensity columns E is nil; scores are probabilities.
	got, err := ReadGroupedPredictions(writeCSV(t, "s,y,g\n0.1,1,a\n0.2,0,b\n0.3,1,c\n"),
		GroupColumns{Score: "s", Label: "y", Groups: []string{"g"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.E != nil || !reflect.DeepEqual(got.P, []float64{0.1, 0.2, 0.3}) || !reflect.DeepEqual(got.Groups, []string{"a", "b", "c"}) ||
		got.CodingNote() != "" {
		t.Errorf("read %+v", got)
	}
}

func TestReadGroupedPredictionsRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		cols GroupColumns
		kind error // nil: not a ParseError
		want string
	}{
		{"no score", "s,y,g\n", GroupColumns{Label: "y", Groups: []string{"g"}}, nil, "name a column of scores, of logits or of decision probabilities"},
		{"no groups", "s,y,g\n", GroupColumns{Score: "s", Label: "y"}, nil, "at least one grouping column"},
		{"missing group column", "s,y,g\n0.5,1,a\n", GroupColumns{Score: "s", Label: "y", Groups: []string{"g", "h"}}, ErrMissingColumn, `no column "h"`},
		{"duplicate column", "s,y,g,g\n0.5,1,a,b\n", GroupColumns{Score: "s", Label: "y", Groups: []string{"g"}}, nil, "line 1, column 4 (g): duplicate column name"},
		{"one group", "s,y,g\n0.5,1,a\n0.5,0,a\n", GroupColumns{Score: "s", Label: "y", Groups: []string{"g"}}, ErrEmptyGroup, `every row is in group "a" of g`},
		{"empty group", "s,y,g\n0.5,1,a\n0.5,0,\n", GroupColumns{Score: "s", Label: "y", Groups: []string{"g"}}, ErrEmptyCell, "line 3, column 3 (g)"},
		{"propensities not matching", "s,y,g,propensity_a,propensity_c\n0.5,1,a,0.5,0.5\n0.5,0,b,0.5,0.5\n",
			GroupColumns{Score: "s", Label: "y", Groups: []string{"g"}}, ErrMissingColumn, `no column "propensity_b"; column "propensity_c" names no group`},
		{"propensities not summing to 1", "s,y,g,propensity_a,propensity_b\n0.5,1,a,0.5,0.5\n0.5,0,b,0.5,0.4999\n",
			GroupColumns{Score: "s", Label: "y", Groups: []string{"g"}}, ErrBadValue, "line 3: unexpected value: the 2 propensity columns sum to 0.9999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadGroupedPredictions(writeCSV(t, tc.text), tc.cols)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			var pe *ParseError
			if tc.kind != nil && (!errors.As(err, &pe) || !errors.Is(err, tc.kind)) {
				t.Errorf("err = %v, want a *ParseError of kind %v", err, tc.kind)
			}
		})
	}
}
