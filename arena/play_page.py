"""The visitors' pages of the arena's games (arena/games.py): the page that starts a game
and the short pages of a game that is gone."""

from __future__ import annotations

import html

from arena.config import ArenaConfig

NO_GAMES = "<!doctype html><title>No games</title><p>This arena has no games for visitors."
NO_GAME = "<!doctype html><title>No such game</title><p>No such game here. <a href='/play'>Play</a>"
GAME_OVER = (
    "<!doctype html><title>Game over</title><p>This game is over and its page closed."
    " <a href='/play'>Play again</a>"
)


def play_page_html(config: ArenaConfig, active: list[str]) -> str:
    """The visitors' page: a variant, optionally the bots, and a button."""
    options = "".join(
        f"<option value='{html.escape(v.id)}'>{html.escape(v.id)} ({v.seats} seats)</option>"
        for v in config.league.variants
    )
    bots = ", ".join(html.escape(name) for name in active) or "none yet"
    return PLAY_PAGE.format(options=options, bots=bots, tables=config.human_games)


PLAY_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Play the bots · Bullring arena</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/bullring.css"></head>
<body><main>
<h1>Play the arena's bots</h1>
<p>Take a seat at a table of the arena's active bots, the best rated first. You see only
your own seat's view, with no clock; the bots keep theirs. Your game does not count in the
ladder's ratings. When it ends, its replay is one click away.</p>
<p>Active bots: {bots}.</p>
<form id="new-game">
<label>Variant <select name="variant">{options}</select></label>
<label>Opponents (names, comma-separated; empty: the best rated)
<input name="bots" placeholder="best rated"></label>
<button type="submit">Play</button>
</form>
<p id="message" role="status"></p>
<p><small>{tables} tables at once. <a href="/">Leaderboard</a></small></p>
</main>
<script src="/play.js"></script>
</body></html>
"""
PLAY_SCRIPT = """document.getElementById("new-game").addEventListener("submit", function (event) {
  event.preventDefault();
  var form = event.target, message = document.getElementById("message");
  var names = form.bots.value.split(",").map(function (s) { return s.trim(); })
    .filter(function (s) { return s; });
  message.textContent = "Starting the bots...";
  fetch("/api/v1/games", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ variant: form.variant.value, bots: names }) })
    .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
    .then(function (a) {
      if (a[0]) { window.location.href = a[1].url; } else { message.textContent = a[1].error; }
    })
    .catch(function () { message.textContent = "The arena did not answer; retry."; });
});
"""
