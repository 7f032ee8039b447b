"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { square, average } = require("./mathutil");

test("square", () => {
  assert.equal(square(4), 16);
  assert.equal(square(-3), 9);
});

test("average", () => {
  assert.equal(average([1, 2, 3, 4]), 2.5);
  assert.equal(average([7]), 7);
});
