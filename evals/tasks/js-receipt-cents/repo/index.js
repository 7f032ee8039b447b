"use strict";

const { orderTotal } = require("./lib/order");
const { formatCents } = require("./lib/money");

/** The receipt line for a list of order lines such as "apple,2,150". */
function receipt(lines) {
  return `Total: ${formatCents(orderTotal(lines))}`;
}

module.exports = { receipt, orderTotal };
