"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { receipt, orderTotal } = require("../index");

const ORDER = ["apple,2,150", "", "pear,1,99"];

test("orderTotal adds up the lines in cents", () => {
  assert.equal(orderTotal(ORDER), 399);
});

test("receipt shows the total in dollars", () => {
  assert.equal(receipt(ORDER), "Total: $3.99");
});
