package grades

import "testing"

func TestReportCutoffs(t *testing.T) {
	got := Report([]Student{{"Dee", 80}, {"Eve", 70}, {"Flo", 100}, {"Gus", 60}})
	want := "Dee: 80 B\nEve: 70 C\nFlo: 100 A\nGus: 60 D\naverage: 77.5\n"
	if got != want {
		t.Errorf("Report() =\n%s\nwant\n%s", got, want)
	}
}
