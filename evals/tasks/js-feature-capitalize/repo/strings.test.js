"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { reverse, repeat } = require("./strings");

test("reverse", () => {
  assert.equal(reverse("abc"), "cba");
  assert.equal(reverse(""), "");
});

test("repeat", () => {
  assert.equal(repeat("ab", 3), "ababab");
  assert.equal(repeat("x", 0), "");
});
