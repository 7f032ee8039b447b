"use strict";

/** Parse an order line "name,quantity,unit price in cents". */
function parseLine(line) {
  const [name, qty, cents] = line.split(",");
  return { name: name.trim(), qty: Number(qty), cents: Number(cents) };
}

module.exports = { parseLine };
