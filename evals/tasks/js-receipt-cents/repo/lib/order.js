"use strict";

const { parseLine } = require("./parse");

/** The total price in cents of the order lines; blank lines are skipped. */
function orderTotal(lines) {
  return lines
    .filter((line) => line.trim() !== "")
    .map(parseLine)
    .reduce((sum, item) => sum + item.qty * item.cents, 0);
}

module.exports = { orderTotal };
