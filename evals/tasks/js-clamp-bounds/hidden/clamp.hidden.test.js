"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { clamp, toByte } = require("./clamp");

test("clamp with negative bounds", () => {
  assert.equal(clamp(-3, -2, 2), -2);
  assert.equal(clamp(0, -2, 2), 0);
});

test("toByte clamps its input", () => {
  assert.equal(toByte(0.5), 128);
  assert.equal(toByte(2), 255);
  assert.equal(toByte(-1), 0);
});
