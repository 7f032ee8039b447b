"use strict";

/** Return the sum of the numbers in xs; 0 for an empty list. */
function sum(xs) {
  return xs.reduce((total, x) => total + x, 0);
}

/** Return the arithmetic mean of xs, which must not be empty. */
function mean(xs) {
  return sum(xs) / xs.length;
}

module.exports = { sum, mean };
