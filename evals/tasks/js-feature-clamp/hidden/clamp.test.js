"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { clamp } = require("./mathutil");

test("clamp limits values above the range to hi", () => {
  assert.equal(clamp(15, 0, 10), 10);
  assert.equal(clamp(10.5, 0, 10), 10);
});

test("clamp limits values below the range to lo", () => {
  assert.equal(clamp(-5, 0, 10), 0);
  assert.equal(clamp(-20, -10, -1), -10);
});

test("clamp keeps values inside the range", () => {
  assert.equal(clamp(5, 0, 10), 5);
  assert.equal(clamp(0, 0, 10), 0);
  assert.equal(clamp(10, 0, 10), 10);
});
