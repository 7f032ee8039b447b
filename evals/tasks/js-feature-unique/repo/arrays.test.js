"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { sum, chunk } = require("./arrays");

test("sum", () => {
  assert.equal(sum([1, 2, 3]), 6);
  assert.equal(sum([]), 0);
});

test("chunk", () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
});
