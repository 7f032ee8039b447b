"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { capitalize, truncate } = require("./strings");

test("capitalize", () => {
  assert.equal(capitalize("hello"), "Hello");
  assert.equal(capitalize(""), "");
});

test("truncate", () => {
  assert.equal(truncate("abcdef", 4), "abc…");
  assert.equal(truncate("abc", 4), "abc");
});
