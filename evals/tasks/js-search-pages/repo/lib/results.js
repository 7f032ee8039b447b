"use strict";

const { pageOf } = require("./paginate");

/** A line such as "1-3 of 7: a, b, c" for page `page` of the matches. */
function resultsPage(matches, page) {
  const { start, items } = pageOf(matches, page);
  if (items.length === 0) return `no results on page ${page}`;
  return `${start + 1}-${start + items.length} of ${matches.length}: ${items.join(", ")}`;
}

module.exports = { resultsPage };
