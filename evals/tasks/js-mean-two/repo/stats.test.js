"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { mean } = require("./stats");

test("mean of three numbers", () => {
  assert.equal(mean([2, 4, 6]), 4);
});

test("mean of one number", () => {
  assert.equal(mean([5]), 5);
});
