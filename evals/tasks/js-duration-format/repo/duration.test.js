"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { formatDuration, playlistLength } = require("./duration");

test("formatDuration", () => {
  assert.equal(formatDuration(75), "1:15");
  assert.equal(formatDuration(65), "1:05");
  assert.equal(formatDuration(0), "0:00");
});

test("playlistLength", () => {
  assert.equal(playlistLength([100, 50]), "2:30");
});
