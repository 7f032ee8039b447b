"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { sum, mean } = require("./stats");

test("more means", () => {
  assert.equal(mean([1, 2]), 1.5);
  assert.equal(mean([-3, 3]), 0);
  assert.equal(mean([10, 20, 30, 40]), 25);
});

test("sum", () => {
  assert.equal(sum([]), 0);
  assert.equal(sum([1, 2, 3]), 6);
});
