"use strict";

/** x multiplied by itself. */
function square(x) {
  return x * x;
}

/** The arithmetic mean of the numbers in items, which must not be empty. */
function average(items) {
  return items.reduce((total, n) => total + n, 0) / items.length;
}

/** x limited to the range from lo to hi: lo when below it, hi when above it. */
function clamp(x, lo, hi) {
  if (x < lo) {
    return lo;
  }
  if (x > hi) {
    return hi;
  }
  return x;
}

module.exports = { square, average, clamp };
