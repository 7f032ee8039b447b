"use strict";

/** Return numerator divided by denominator, or 0 when the denominator is 0. */
function ratio(numerator, denominator) {
  if (denominator === 0) return 0;
  return numerator / denominator;
}

/** Return what percentage part is of whole, rounded to a whole number. */
function percent(part, whole) {
  return Math.round(ratio(part, whole) * 100);
}

/** A progress label such as "3/4 (75%)". */
function progress(done, total) {
  return `${done}/${total} (${percent(done, total)}%)`;
}

module.exports = { ratio, percent, progress };
