"use strict";

/** The items that contain query, ignoring case, in their original order. */
function matching(items, query) {
  const q = query.toLowerCase();
  return items.filter((item) => item.toLowerCase().includes(q));
}

module.exports = { matching };
