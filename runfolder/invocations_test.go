package runfolder

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestWallTime(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	for _, tc := range []struct {
		name string
		invs []Invocation
		want time.Duration
	}{
		{"none", nil, 0},
		{"one", []Invocation{{Start: at(0), End: at(10)}}, 10 * time.Minute},
		{"resumed: the sum", []Invocation{{Start: at(30), End: at(35)}, {Start: at(0), End: at(10)}}, 15 * time.Minute},
		{"shards side by side: the union", []Invocation{{Start: at(0), End: at(10)}, {Start: at(2), End: at(12)}, {Start: at(3), End: at(5)}}, 12 * time.Minute},
		{"end before start is ignored", []Invocation{{Start: at(10), End: at(0)}, {Start: at(0), End: at(1)}}, time.Minute},
	} {
		if got := WallTime(tc.invs); got != tc.want {
			t.Errorf("%s: WallTime = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestInvocationsAppendAndRead(t *testing.T) {
	dir := t.TempDir()
	if got, err := ReadInvocations(dir); err != nil || got != nil {
		t.Fatalf("folder without invocations: %v, %v; want none and no error", got, err)
	}
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	want := []Invocation{
		{Args: []string{"fp", "train", "--splits", "2"}, Dir: "/home/x", Start: t0, End: t0.Add(time.Minute), Trained: 3, Status: "interrupted"},
		{Args: []string{"fp", "train", "--splits", "2"}, Dir: "/home/x", Start: t0.Add(time.Hour), End: t0.Add(2 * time.Hour), Trained: 7, Status: "done"},
	}
	for _, inv := range want {
		if err := AppendInvocation(dir, inv); err != nil {
			t.Fatal(err)
		}
	}
	// A torn last line, as a crash mid-write leaves, is skipped.
	f, err := os.OpenFile(filepath.Join(dir, InvocationsFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"args":["fp","tr`)
	f.Close()
	got, err := ReadInvocations(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v\nwant %+v", got, want)
	}
}
