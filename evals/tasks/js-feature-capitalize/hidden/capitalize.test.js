"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { capitalize } = require("./strings");

test("capitalize upper-cases the first character", () => {
  assert.equal(capitalize("hello world"), "Hello world");
  assert.equal(capitalize("a"), "A");
});

test("capitalize leaves the rest unchanged", () => {
  assert.equal(capitalize("hELLO"), "HELLO");
  assert.equal(capitalize("Already"), "Already");
  assert.equal(capitalize("1st place"), "1st place");
});

test("capitalize of the empty string is empty", () => {
  assert.equal(capitalize(""), "");
});
