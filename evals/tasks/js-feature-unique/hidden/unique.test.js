"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { unique } = require("./arrays");

test("unique drops repeated values and keeps the first order", () => {
  assert.deepEqual(unique([3, 1, 3, 2, 1]), [3, 1, 2]);
  assert.deepEqual(unique(["a", "a"]), ["a"]);
  assert.deepEqual(unique([]), []);
});

test("unique returns a new array", () => {
  const items = [1, 1, 2];
  const result = unique(items);
  assert.notEqual(result, items);
  assert.deepEqual(items, [1, 1, 2]);
});
