"use strict";

const PAGE_SIZE = 3;

/** The items on page `page` of a list, pages numbered from 1, PAGE_SIZE items each. */
function pageOf(items, page) {
  const start = (page - 1) * PAGE_SIZE;
  return { start, items: items.slice(start, start + PAGE_SIZE) };
}

module.exports = { pageOf, PAGE_SIZE };
