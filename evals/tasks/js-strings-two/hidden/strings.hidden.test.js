"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { capitalize, truncate, headline } = require("./strings");

test("headline", () => {
  assert.equal(headline("breaking news", 8), "Breakin…");
  assert.equal(headline("ok", 8), "Ok");
});

test("truncate never exceeds max", () => {
  assert.equal(truncate("abcdefghij", 6).length, 6);
  assert.equal(capitalize("x"), "X");
});
