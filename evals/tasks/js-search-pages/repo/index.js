"use strict";

const { matching } = require("./lib/filter");
const { resultsPage } = require("./lib/results");

/** Page `page` (1 is the first) of the items that contain query, as "1-3 of 7: a, b, c". */
function searchPage(items, query, page) {
  return resultsPage(matching(items, query), page);
}

module.exports = { searchPage };
