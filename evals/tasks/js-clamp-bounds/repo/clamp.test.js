"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { clamp, toByte } = require("./clamp");

test("clamp keeps a value inside the range", () => {
  assert.equal(clamp(5, 0, 10), 5);
});

test("clamp moves a value outside the range to the nearest bound", () => {
  assert.equal(clamp(-1, 0, 10), 0);
  assert.equal(clamp(11, 0, 10), 10);
});

test("toByte", () => {
  assert.equal(toByte(1), 255);
});
