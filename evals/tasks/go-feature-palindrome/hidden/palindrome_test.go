package textutil

import "testing"

func TestIsPalindrome(t *testing.T) {
	cases := map[string]bool{
		"level": true,
		"Level": true,
		"abba":  true,
		"abc":   false,
		"ab":    false,
		"":      true,
	}
	for in, want := range cases {
		if got := IsPalindrome(in); got != want {
			t.Errorf("IsPalindrome(%q) = %v, want %v", in, got, want)
		}
	}
}
