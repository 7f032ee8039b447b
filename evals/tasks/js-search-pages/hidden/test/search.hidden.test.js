"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { searchPage } = require("../index");

const FRUIT = ["Apple", "banana", "apricot", "cherry", "grape", "papaya", "date"];

test("later pages", () => {
  assert.equal(searchPage(FRUIT, "a", 2), "4-6 of 6: grape, papaya, date");
  assert.equal(searchPage(FRUIT, "a", 3), "no results on page 3");
  assert.equal(searchPage(FRUIT, "e", 2), "4-4 of 4: date");
  assert.equal(searchPage(FRUIT, "CHERRY", 1), "1-1 of 1: cherry");
});
