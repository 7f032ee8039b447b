"use strict";

/** Upper-case the first letter of word. */
function capitalize(word) {
  if (word === "") return "";
  return word[0].toUpperCase() + word.slice(1);
}

/** Shorten text to at most max characters, ending with "…" when it was cut. */
function truncate(text, max) {
  if (text.length <= max) return text;
  return text.slice(0, max - 1) + "…";
}

/** A headline: capitalized, then cut to max characters. */
function headline(text, max) {
  return truncate(capitalize(text), max);
}

module.exports = { capitalize, truncate, headline };
