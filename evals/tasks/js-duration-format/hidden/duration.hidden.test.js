"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { formatDuration, playlistLength } = require("./duration");

test("more durations", () => {
  assert.equal(formatDuration(600), "10:00");
  assert.equal(formatDuration(3599), "59:59");
  assert.equal(playlistLength([60, 3]), "1:03");
});
