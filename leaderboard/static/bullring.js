/* Bullring leaderboard: the replay viewer. Vanilla JS, no fetch(): a match page holds its
   data in a data block (<script type="application/octet-stream" id="replay-data">, never
   run: the pages' Content-Security-Policy runs no inline script) that the viewer hands to
   Bullring.replayLoaded(data), so the site works from file:// as well as from any static
   host. Every text of the data (names, faults' details) is shown as text (textContent),
   never parsed as HTML. Cards are drawn by bullring_cards.js, the
   score graph by bullring_graph.js, tables sorted and filtered by bullring_tables.js (all
   loaded first, base.html). */
"use strict";
var Bullring = (function () {
  var el = BullringCards.el, cards = BullringCards.cards;
  var specialNode = BullringCards.specialNode, installSprite = BullringCards.installSprite;
  var nimmtHeads = BullringCards.nimmtHeads, hornochsenPoints = BullringCards.hornochsenPoints;

  /* ---- replay viewer ----
     One data file per match (leaderboard/viewer_data.py): the decisions and a snapshot of
     the table after each one (delta-encoded). The referee's table shows every hand; a
     seat's table shows only what that seat's own view held at that step (tableOf, the
     rule of referee.replay.snapshots.seat_view). Unknown fields and kinds are ignored. */
  var viewer = null;
  var early = null;  // replay data that arrived before the viewer was set up
  var SPECIALS = { 1: "x2", 2: "+5" };
  var SECRET_DECISIONS = ["PICK_CARD"];  // a choice hidden from the other seats when made
  var SEAT_COLORS = BullringGraph.SEAT_COLORS;
  var LOG_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.log\.txt$/;  // a log tail's file name (paths.py)

  /* Undo the data file's delta encoding: every full snapshot. A change that is an object
     patches the previous list item by item ({index: item}). */
  function expand(snapshots) {
    var full = [];
    snapshots.forEach(function (change, k) {
      if (k === 0) { full.push(change); return; }
      var next = Object.assign({}, full[k - 1]);
      Object.keys(change).forEach(function (key) {
        var value = change[key];
        if (value !== null && typeof value === "object" && !Array.isArray(value)) {
          var list = (next[key] || []).slice();
          Object.keys(value).forEach(function (i) { list[parseInt(i, 10)] = value[i]; });
          next[key] = list;
        } else {
          next[key] = value;
        }
      });
      full.push(next);
    });
    return full;
  }

  function joined(list) { return list.length ? list.join(" ") : "-"; }

  function revealed(s) {
    if (!s.revealed || !s.revealed.length) return [];
    return ["Revealed: " + s.revealed.map(function (p) { return "seat " + p[0] + ": " + p[1]; }).join(", ")];
  }

  /* The table `seat` may see (-1: the referee, every hand), from a full snapshot. An
     extra line is {text, cards}: cards drawn after the text (its text stays the same). */
  function tableOf(family, s, seat) {
    var players = s.scores.length;
    function hand(i) {
      if (seat < 0 || s.public_hands || i === seat) return s.all_hands[i];
      return null;
    }
    var areas = [], notes = [], seats = [];
    for (var i = 0; i < players; i++) {
      seats.push({ hand: hand(i), hand_size: (s.all_hands[i] || []).length, extra: [] });
    }
    if (family === "6nimmt") {
      s.rows.forEach(function (r, k) { areas.push({ label: "Row " + (k + 1), cards: r, tags: [] }); });
      notes = revealed(s);
      if (s.pending_card) notes.push("Waiting to place: " + s.pending_card);
      if (s.draft_pool && s.draft_pool.length) notes.push("Draft pool: " + s.draft_pool.join(" "));
      if (s.public_hands) notes.push("Hands are public in this variant");
      seats.forEach(function (box, i) {
        box.extra.push({ text: "Heads this round: " + s.round_penalties[i] });
        if (s.picked[i]) box.extra.push({ text: "Picked" });
      });
    } else if (family === "xnimmt") {
      s.rows.forEach(function (r, k) {
        areas.push({ label: "Row " + (k + 1), cards: r, tags: ["takes at " + s.capacities[k]] });
      });
      notes = revealed(s);
      if (s.pending_card) notes.push("Waiting to place: " + s.pending_card);
      if (s.taken.length) notes.push("Just taken: " + s.taken.join(" "));
      seats.forEach(function (box, i) {
        box.extra.push({ label: "X row: ", cards: s.x_rows[i] });
        if (i === seat) box.extra.push({ label: "X pile: ", cards: s.own_x_pile[i] });
        else box.extra.push({ text: "X pile: " + s.x_pile_sizes[i] + " cards" });
        if (s.picked[i]) box.extra.push({ text: "Picked" });
      });
    } else if (family === "11nimmt") {
      s.pile_tops.forEach(function (top, k) {
        areas.push({ label: "Pile " + (k + 1), cards: [top], tags: ["top"], count: (viewer && viewer.piles) ? viewer.piles[viewer.step][k] : 0 });
      });
      notes = ["Deck: " + s.deck_size + " cards", "Bull supply: " + s.supply, "Round starter: seat " + s.starter];
      if (s.turn_plays.length) {
        notes.push("This turn: " + s.turn_plays.map(function (p) { return p[0] + " on pile " + (p[1] + 1); }).join(", "));
      }
      seats.forEach(function (box, i) { box.extra.push({ text: "Bull cards: " + s.bulls[i], bulls: s.bulls[i] }); });
    } else if (family === "hornochsen") {
      s.rows.forEach(function (r, k) {
        areas.push({ label: "Row " + (k + 1), cards: r[0], tags: (r[1] ? ["x2"] : []).concat(r[2] ? ["+5"] : []) });
      });
      if (s.steps_this_turn) notes.push("Steps this turn: " + s.steps_this_turn);
      seats.forEach(function (box, i) {
        if (i === seat) {
          box.extra.push({ text: "Specials in hand: " + joined(s.specials[i].map(function (c) { return SPECIALS[c] || String(c); })) });
          box.extra.push({ label: "Collected: ", cards: s.own_pile[i] });
        } else {
          box.extra.push({ text: "Specials in hand: " + s.special_counts[i] });
        }
        box.extra.push({ text: "Scoring pile: " + s.pile_sizes[i] + " cards" });
      });
    }
    return { round: s.round, scores: s.scores, to_move: s.to_move, areas: areas, seats: seats, notes: notes };
  }

  /* 11 nimmt! shows only pile tops; the number of cards in each pile is counted from the
     plays and takes (a play adds a card to its pile; a take or a new round changes the
     piles: a pile whose top is still there keeps its count, a new one holds 1). */
  function pileCounts(data, full) {
    var counts = [full[0].pile_tops.map(function () { return 1; })];
    for (var k = 1; k < full.length; k++) {
      var before = full[k - 1], after = full[k], option = data.decisions[k - 1][2];
      var prev = counts[k - 1], now;
      if (option[0] === 4 && after.pile_tops.length === before.pile_tops.length && after.round === before.round) {
        now = prev.slice();
        var pile = option.length > 2 ? option[2] : -1;
        if (pile >= 0 && pile < now.length) now[pile] += 1;
      } else if (after.pile_tops.join() === before.pile_tops.join() && after.round === before.round) {
        now = prev;
      } else {
        var sameRound = after.round === before.round;
        var takenPile = option[0] === 2 && option.length > 2 ? option[2] : -1;
        now = after.pile_tops.map(function (top) {
          var j = sameRound ? before.pile_tops.indexOf(top) : -1;
          return j >= 0 && j !== takenPile ? prev[j] : 1;
        });
      }
      counts.push(now);
    }
    return counts;
  }

  function seatName(data, seat) { return "Seat " + seat + " (" + data.players[seat] + ")"; }

  /* An option [kind, card, row, side, target] (trailing defaults left off) in words. */
  function describeOption(family, kindName, o) {
    var kind = o[0], card = o[1] || 0, row = o.length > 2 ? o[2] : -1;
    var where = family === "11nimmt" ? "pile " : "row ";
    if (kind === 1) {
      if (kindName === "DRAFT_CARD") return "drafted " + card;
      if (kindName === "X_ROW_CARD") return "put " + card + " in their X row";
      return "picked " + card;
    }
    if (kind === 2) return "took " + where + (row + 1);
    if (kind === 3) return "placed the card at the " + (o[3] ? "left" : "right") + " end of row " + (row + 1);
    if (kind === 4) return "played " + card + (row >= 0 ? " on " + where + (row + 1) : "");
    if (kind === 5) return "played the " + (SPECIALS[card] || card) + " special on row " + (row + 1);
    if (kind === 6) return "ended the turn";
    if (kind === 7) return "stole a bull card from seat " + o[4];
    return "chose option " + JSON.stringify(o);
  }

  /* Decision `k` (0-based) as `seat` may see it (-1: everything). */
  function decisionOf(data, k, seat) {
    var d = data.decisions[k], extra = d[5] || {};
    var kind = data.kinds[d[1]];
    var own = seat < 0 || d[0] === seat;
    var hidden = !own && SECRET_DECISIONS.indexOf(kind) >= 0;
    return {
      seat: d[0], kind: kind,
      words: hidden ? "picked a card face down" : describeOption(viewer.family, kind, d[2]),
      options: own ? d[4] : null,
      time_ms: d[3] || 0, fault: extra.fault || null, auto: !!extra.auto
    };
  }

  function unit(family, n) {
    if (family === "hornochsen") return Math.abs(n) + (Math.abs(n) === 1 ? " point" : " points");
    return n + (n === 1 ? " head" : " heads");
  }

  /* What decision k did to the table, in words: who took heads, from the scores. */
  function consequences(k) {
    if (k === 0) return [];
    var before = viewer.snapshots[k - 1], after = viewer.snapshots[k], family = viewer.family;
    var out = [];
    var key = family === "6nimmt" && before.round === after.round ? "round_penalties" : "scores";
    (after[key] || []).forEach(function (value, i) {
      var change = value - ((before[key] || [])[i] || 0);
      if (!change) return;
      if (family === "hornochsen") out.push("Seat " + i + (change > 0 ? " scored " : " lost ") + unit(family, change));
      else out.push("Seat " + i + " took " + unit(family, change));
    });
    if (after.round !== before.round) out.push("Round " + after.round + " begins");
    return out;
  }

  function describe(data, d) {
    return seatName(data, d.seat) + " " + d.words;
  }

  /* The rows or piles that decision k changed, and the cards new in them. */
  function changedAreas(k) {
    var result = { rows: [], cards: [], taken: [] };
    if (k === 0) return result;
    var before = viewer.snapshots[k - 1], after = viewer.snapshots[k];
    var rowsOf = function (s) {
      if (viewer.family === "11nimmt") return (s.pile_tops || []).map(function (t) { return [t]; });
      if (viewer.family === "hornochsen") return (s.rows || []).map(function (r) { return r[0]; });
      return s.rows || [];
    };
    var old = rowsOf(before), now = rowsOf(after);
    // Hornochsen! rows leave the circle when collected: a row is known by its first card
    var byFirst = viewer.family === "hornochsen";
    now.forEach(function (row, i) {
      var was = old[i] || [];
      if (byFirst) {
        was = old.filter(function (r) { return r[0] === row[0]; })[0] || [];
      }
      if (row.join() === was.join()) return;
      result.rows.push(i);
      row.forEach(function (c) { if (was.indexOf(c) < 0) result.cards.push(c); });
      // a row taken and started anew (6 nimmt!, X nimmt!): its old cards are gone
      if (viewer.family !== "11nimmt" && !byFirst && was.length &&
          was.some(function (c) { return row.indexOf(c) < 0; })) result.taken.push(i);
    });
    return result;
  }

  function extraLine(family, line) {
    var node = el("div", "extra");
    if (line.cards) {
      node.appendChild(document.createTextNode(line.label));
      if (line.cards.length) node.appendChild(cards(family, line.cards));
      else node.appendChild(document.createTextNode("-"));
    } else {
      node.textContent = line.text;
      if (line.bulls) {
        var icons = el("span", "bull-cards");
        icons.setAttribute("aria-hidden", "true");
        for (var b = 0; b < line.bulls; b++) icons.appendChild(el("span", "bull-card"));
        node.appendChild(icons);
      }
    }
    return node;
  }

  function renderTable(data, table, changes) {
    var family = viewer.family;
    var box = document.getElementById("table");
    box.textContent = "";
    box.appendChild(el("p", "round", "Round " + table.round + " · scores " + table.scores.join(" / ")));
    var areas = el("div", "areas");
    table.areas.forEach(function (area, i) {
      var row = el("div", "area");
      row.setAttribute("data-row", String(i));
      if (changes.rows.indexOf(i) >= 0) row.classList.add("changed");
      if (changes.taken.indexOf(i) >= 0) row.classList.add("taken");
      row.appendChild(el("span", "label", area.label));
      row.appendChild(cards(family, area.cards, changes.cards));
      area.tags.forEach(function (t) {
        row.appendChild(t === "x2" || t === "+5" ? specialNode(t) : el("span", "tag", t));
      });
      if (area.count) row.appendChild(el("span", "count", area.count + (area.count === 1 ? " card" : " cards")));
      if (changes.taken.indexOf(i) >= 0) row.appendChild(el("span", "took-mark", "taken"));
      areas.appendChild(row);
    });
    box.appendChild(areas);
    var seats = el("div", "seats");
    table.seats.forEach(function (seat, i) {
      var node = el("div", "seat-box" + (table.to_move.indexOf(i) >= 0 ? " to-move" : ""));
      node.setAttribute("data-seat", String(i));
      node.style.borderLeftColor = SEAT_COLORS[i % SEAT_COLORS.length];
      if (viewer.step > 0 && data.decisions[viewer.step - 1][0] === i) node.classList.add("last-mover");
      node.appendChild(el("div", "who", "Seat " + i + " · " + data.players[i] + " · " + table.scores[i]));
      var hand = el("div", "hand");
      if (seat.hand === null) {
        hand.appendChild(el("span", "hidden-hand", seat.hand_size + " hidden cards"));
      } else {
        hand.appendChild(cards(family, seat.hand));
      }
      node.appendChild(hand);
      seat.extra.forEach(function (line) { node.appendChild(extraLine(family, line)); });
      seats.appendChild(node);
    });
    box.appendChild(seats);
    table.notes.forEach(function (n) { box.appendChild(el("p", "note", n)); });
  }

  /* ---- the score graph: each seat's score after every decision ---- */
  function fragment() {
    var out = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var kv = pair.split("=");
      if (kv[0]) out[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
    });
    return out;
  }

  function writeFragment() {
    var hash = "#d=" + viewer.step + (viewer.seat >= 0 ? "&seat=" + viewer.seat : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function show(step) {
    var data = viewer.data, total = data.decisions.length;
    step = Math.max(0, Math.min(total, isNaN(step) ? 0 : step));
    viewer.step = step;
    var section = document.getElementById("replay");
    section.setAttribute("data-step", String(step));
    document.getElementById("position").textContent = "Decision " + step + " / " + total;
    document.getElementById("jump").value = String(step);
    document.getElementById("prev").disabled = step === 0;
    document.getElementById("first").disabled = step === 0;
    document.getElementById("next").disabled = step === total;
    document.getElementById("last").disabled = step === total;
    var box = document.getElementById("decision");
    box.textContent = "";
    box.classList.remove("has-fault");
    if (step === 0) {
      box.appendChild(el("span", "what", "The deal, before any decision"));
    } else {
      var d = decisionOf(data, step - 1, viewer.seat);
      box.setAttribute("data-kind", d.kind);
      var what = el("span", "what", describe(data, d) + (d.auto ? " (played for the seat)" : ""));
      what.style.borderLeftColor = SEAT_COLORS[d.seat % SEAT_COLORS.length];
      box.appendChild(what);
      consequences(step).forEach(function (line) { box.appendChild(el("span", "then", line)); });
      box.appendChild(el("span", "time", d.time_ms.toFixed(1) + " ms"));
      if (d.options !== null) box.appendChild(el("span", "options", d.options + (d.options === 1 ? " option" : " options") + " offered"));
      if (d.fault) {
        box.classList.add("has-fault");
        var fault = el("span", "fault", "fault " + d.fault.kind + ": " + (d.fault.detail || ""));
        var log = data.logs && data.logs[String(d.seat)];
        if (typeof log === "string" && LOG_FILE.test(log)) {  /* a file beside the page */
          var a = el("a", "log", "bot log");
          a.href = log;
          fault.appendChild(document.createTextNode(" · "));
          fault.appendChild(a);
        }
        box.appendChild(fault);
      }
    }
    var changes = changedAreas(step);
    renderTable(data, tableOf(viewer.family, viewer.snapshots[step], viewer.seat), changes);
    var items = document.getElementById("decisions").children;
    Array.prototype.forEach.call(items, function (li, i) {
      li.classList.toggle("current", i === step - 1);
    });
    if (viewer.marker) {
      var x = viewer.sx(step).toFixed(1);
      viewer.marker.setAttribute("x1", x);
      viewer.marker.setAttribute("x2", x);
    }
    writeFragment();
  }

  /* Draw the match from perspective `name` ("referee" or "seat<N>"). */
  function perspective(name) {
    var data = viewer.data;
    viewer.seat = name === "referee" ? -1 : parseInt(name.slice(4), 10);
    document.getElementById("perspective").value = name;
    var list = document.getElementById("decisions");
    list.textContent = "";
    data.decisions.forEach(function (raw, i) {
      var d = decisionOf(data, i, viewer.seat);
      var li = el("li", d.fault ? "faulted" : "");
      var a = el("a", "", describe(data, d) + (d.fault ? " · fault " + d.fault.kind : ""));
      a.href = "#d=" + (i + 1) + (viewer.seat >= 0 ? "&seat=" + viewer.seat : "");
      a.addEventListener("click", function (e) { e.preventDefault(); show(i + 1); });
      li.appendChild(a);
      list.appendChild(li);
    });
    document.getElementById("replay").setAttribute("data-perspective", name);
    show(viewer.step);
  }

  /* Apply the URL fragment (#d=7&seat=1; seat absent: the referee's view). */
  function fromFragment() {
    var f = fragment();
    var players = viewer.data.players.length;
    var seat = f.seat !== undefined ? parseInt(f.seat, 10) : -1;
    var name = seat >= 0 && seat < players ? "seat" + seat : "referee";
    viewer.step = f.d !== undefined ? parseInt(f.d, 10) || 0 : viewer.step;
    perspective(name);
  }

  function loaded(data) {
    if (!viewer) { early = data; return; }  /* the page's data came before the page was ready */
    viewer.data = data;
    viewer.family = data.family || viewer.family;
    viewer.snapshots = expand(data.snapshots);
    viewer.piles = viewer.family === "11nimmt" ? pileCounts(data, viewer.snapshots) : null;
    document.getElementById("jump").max = String(data.decisions.length);
    BullringGraph.scoreGraph(data, viewer, show);
    fromFragment();
  }

  /* The match's data: an object, or (as the site writes it, in the page's data block) the
     JSON deflated and base64-encoded, which the browser inflates. */
  function replayLoaded(data) {
    if (typeof data !== "string") { loaded(data); return; }
    var bytes = Uint8Array.from(atob(data), function (ch) { return ch.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    new Response(stream).text().then(function (text) { loaded(JSON.parse(text)); }, function (err) {
      document.getElementById("table").textContent = "Replay data unreadable: " + err;
    });
  }

  function toggleHelp() {
    var help = document.getElementById("keys");
    if (help) help.open = !help.open;
  }

  function initReplay(section) {
    installSprite();
    viewer = { data: null, snapshots: [], step: 0, seat: -1, family: section.getAttribute("data-family"), marker: null };
    document.getElementById("first").onclick = function () { show(0); };
    document.getElementById("prev").onclick = function () { show(viewer.step - 1); };
    document.getElementById("next").onclick = function () { show(viewer.step + 1); };
    document.getElementById("last").onclick = function () { show(Infinity); };
    document.getElementById("jump").onchange = function (e) { show(parseInt(e.target.value, 10) || 0); };
    document.getElementById("perspective").onchange = function (e) {
      if (viewer.data) perspective(e.target.value);
    };
    window.addEventListener("hashchange", function () { if (viewer.data) fromFragment(); });
    document.addEventListener("keydown", function (e) {
      if (!viewer.data || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      var seats = viewer.data.players.length;
      if (e.key === "ArrowRight") { show(viewer.step + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { show(viewer.step - 1); e.preventDefault(); }
      else if (e.key === "Home") { show(0); e.preventDefault(); }
      else if (e.key === "End") { show(Infinity); e.preventDefault(); }
      else if (e.key === "v") { perspective(viewer.seat + 1 >= seats ? "referee" : "seat" + (viewer.seat + 1)); }
      else if (e.key === "f") { nextFault(); }
      else if (e.key === "?") { toggleHelp(); }
    });
    if (early) { var data = early; early = null; loaded(data); }
    var block = document.getElementById("replay-data");
    if (block) replayLoaded(block.textContent.trim());
  }

  function nextFault() {
    var ds = viewer.data.decisions;
    for (var k = viewer.step; k < ds.length; k++) {
      if (ds[k][5] && ds[k][5].fault) { show(k + 1); return; }
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var section = document.getElementById("replay");
    if (section) initReplay(section);
  });

  return { replayLoaded: replayLoaded, show: show, expand: expand, tableOf: tableOf, nimmtHeads: nimmtHeads, hornochsenPoints: hornochsenPoints };
})();
