"use strict";

/** s with its characters in reverse order. */
function reverse(s) {
  return Array.from(s).reverse().join("");
}

/** s written n times in a row. */
function repeat(s, n) {
  let out = "";
  for (let i = 0; i < n; i += 1) {
    out += s;
  }
  return out;
}

module.exports = { reverse, repeat };
