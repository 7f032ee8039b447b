"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { receipt } = require("../index");

test("small and empty orders", () => {
  assert.equal(receipt(["tea,3,5"]), "Total: $0.15");
  assert.equal(receipt([]), "Total: $0.00");
  assert.equal(receipt(["tv,1,129900"]), "Total: $1299.00");
});
