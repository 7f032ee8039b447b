package words

import "testing"

func TestReverseWordsSpacing(t *testing.T) {
	if got := ReverseWords("  a   b "); got != "b a" {
		t.Errorf("ReverseWords = %q, want %q", got, "b a")
	}
	if got := ReverseWords("go is fun"); got != "fun is go" {
		t.Errorf("ReverseWords = %q, want %q", got, "fun is go")
	}
}
