"use strict";

/** Limit value to the range from min to max. */
function clamp(value, min, max) {
  return Math.min(max, Math.max(min, value));
}

/** Turn a fraction from 0 to 1 into a byte from 0 to 255. */
function toByte(fraction) {
  return Math.round(clamp(fraction, 0, 1) * 255);
}

module.exports = { clamp, toByte };
