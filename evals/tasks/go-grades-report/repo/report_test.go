package grades

import "testing"

func TestReport(t *testing.T) {
	got := Report([]Student{{"Ana", 90}, {"Ben", 85}, {"Cy", 59}})
	want := "Ana: 90 A\nBen: 85 B\nCy: 59 F\naverage: 78.0\n"
	if got != want {
		t.Errorf("Report() =\n%s\nwant\n%s", got, want)
	}
}

func TestEmptyReport(t *testing.T) {
	if got := Report(nil); got != "average: 0.0\n" {
		t.Errorf("Report(nil) = %q", got)
	}
}
