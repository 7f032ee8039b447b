"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { percent, progress } = require("./percent");

test("percent rounds", () => {
  assert.equal(percent(2, 3), 67);
  assert.equal(percent(5, 5), 100);
});

test("progress of nothing", () => {
  assert.equal(progress(0, 0), "0/0 (0%)");
});
