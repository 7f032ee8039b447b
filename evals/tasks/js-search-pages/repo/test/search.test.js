"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { searchPage } = require("../index");

const FRUIT = ["Apple", "banana", "apricot", "cherry", "grape", "papaya", "date"];

test("the first page of results", () => {
  assert.equal(searchPage(FRUIT, "a", 1), "1-3 of 6: Apple, banana, apricot");
});

test("nothing matches", () => {
  assert.equal(searchPage(FRUIT, "kiwi", 1), "no results on page 1");
});
