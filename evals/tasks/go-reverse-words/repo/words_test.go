package words

import "testing"

func TestReverseWords(t *testing.T) {
	cases := map[string]string{
		"one two three": "three two one",
		"hello":         "hello",
		"":              "",
	}
	for in, want := range cases {
		if got := ReverseWords(in); got != want {
			t.Errorf("ReverseWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCountWords(t *testing.T) {
	if got := CountWords("a b  c"); got != 3 {
		t.Errorf("CountWords = %d, want 3", got)
	}
}
