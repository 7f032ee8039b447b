"use strict";

/** x multiplied by itself. */
function square(x) {
  return x * x;
}

/** The arithmetic mean of the numbers in items, which must not be empty. */
function average(items) {
  return items.reduce((total, n) => total + n, 0) / items.length;
}

module.exports = { square, average };
