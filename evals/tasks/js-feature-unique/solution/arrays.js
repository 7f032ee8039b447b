"use strict";

/** The sum of the numbers in items. */
function sum(items) {
  return items.reduce((total, n) => total + n, 0);
}

/** Split items into arrays of at most size elements. */
function chunk(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

/** A new array without repeated values, each kept where it first appears. */
function unique(items) {
  return [...new Set(items)];
}

module.exports = { sum, chunk, unique };
