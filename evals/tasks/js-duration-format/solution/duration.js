"use strict";

/** Format a number of seconds as minutes and seconds, e.g. 75 -> "1:15". */
function formatDuration(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes}:${String(rest).padStart(2, "0")}`;
}

/** The total length of a playlist, given each track's length in seconds. */
function playlistLength(tracks) {
  return formatDuration(tracks.reduce((sum, t) => sum + t, 0));
}

module.exports = { formatDuration, playlistLength };
