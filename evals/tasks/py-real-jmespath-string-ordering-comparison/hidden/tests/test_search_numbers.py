import unittest

import jmespath


class NumberComparisonTests(unittest.TestCase):
    # Numbers are ordered as before; a comparison with null still gives None.
    def test_numbers_compare(self):
        self.assertIs(jmespath.search('a < b', {'a': 1, 'b': 2}), True)
        self.assertIs(jmespath.search('a > b', {'a': 1, 'b': 2}), False)
        self.assertIs(jmespath.search('a <= b', {'a': 2.5, 'b': 2.5}), True)

    def test_null_does_not_compare(self):
        self.assertIsNone(jmespath.search('a < b', {'a': None, 'b': 2}))
