"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { ratio, percent, progress } = require("./percent");

test("ratio", () => {
  assert.equal(ratio(1, 2), 0.5);
  assert.equal(ratio(3, 0), 0);
});

test("percent", () => {
  assert.equal(percent(1, 4), 25);
});

test("progress", () => {
  assert.equal(progress(3, 4), "3/4 (75%)");
});
