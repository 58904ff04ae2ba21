/* Bullring leaderboard: sortable tables and the replay viewer. Vanilla JS, no fetch():
   a match's data file is a <script> tag that calls Bullring.replayLoaded(data), so the
   site works from file:// as well as from any static host. */
"use strict";
var Bullring = (function () {
  function cellValue(row, index, numeric) {
    var cell = row.cells[index];
    var raw = cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent;
    if (!numeric) return raw.trim().toLowerCase();
    var n = parseFloat(raw);
    return isNaN(n) ? -Infinity : n;
  }

  function sortTable(table, index, th) {
    var numeric = th.getAttribute("data-type") === "num";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
      var c = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? c : -c;
    });
    Array.prototype.forEach.call(th.parentNode.cells, function (other) {
      other.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function makeSortable(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, index) {
      th.tabIndex = 0;
      th.title = "Sort by " + th.textContent;
      th.addEventListener("click", function () { sortTable(table, index, th); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortTable(table, index, th); }
      });
    });
  }

  /* ---- replay viewer ----
     One data file per match: its replay (leaderboard/viewer_data.py), with the decisions
     and a snapshot of the table after each one (referee/snapshots.py). The referee's table
     shows every hand; a seat's table shows only what that seat's own view held at that
     step (tableOf, the rule of referee.snapshots.seat_view). */
  var viewer = null;
  var SPECIALS = { 1: "x2", 2: "+5" };
  var SECRET_DECISIONS = ["PICK_CARD"];  // a choice hidden from the other seats when made

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function expand(snapshots) {
    var full = [];
    snapshots.forEach(function (change, k) {
      full.push(k === 0 ? change : Object.assign({}, full[k - 1], change));
    });
    return full;
  }

  function joined(list) { return list.length ? list.join(" ") : "-"; }

  function revealed(s) {
    if (!s.revealed || !s.revealed.length) return [];
    return ["Revealed: " + s.revealed.map(function (p) { return "seat " + p[0] + ": " + p[1]; }).join(", ")];
  }

  /* The table `seat` may see (-1: the referee, every hand), from a full snapshot. */
  function tableOf(family, s, seat) {
    var players = s.hand_sizes.length;
    function hand(i) {
      if (seat < 0 || s.public_hands || i === seat) return s.all_hands[i];
      return null;
    }
    var areas = [], notes = [], seats = [];
    for (var i = 0; i < players; i++) seats.push({ hand: hand(i), hand_size: s.hand_sizes[i], extra: [] });
    if (family === "6nimmt") {
      s.rows.forEach(function (r, k) { areas.push({ label: "Row " + (k + 1), cards: r, tags: [] }); });
      notes = revealed(s);
      if (s.pending_card) notes.push("Waiting to place: " + s.pending_card);
      if (s.draft_pool.length) notes.push("Draft pool: " + s.draft_pool.join(" "));
      if (s.public_hands) notes.push("Hands are public in this variant");
      seats.forEach(function (box, i) {
        box.extra.push("Heads this round: " + s.round_penalties[i]);
        if (s.picked[i]) box.extra.push("Picked");
      });
    } else if (family === "xnimmt") {
      s.rows.forEach(function (r, k) {
        areas.push({ label: "Row " + (k + 1), cards: r, tags: ["takes at " + s.capacities[k]] });
      });
      notes = revealed(s);
      if (s.pending_card) notes.push("Waiting to place: " + s.pending_card);
      if (s.taken.length) notes.push("Just taken: " + s.taken.join(" "));
      seats.forEach(function (box, i) {
        box.extra.push("X row: " + joined(s.x_rows[i]));
        box.extra.push(i === seat ? "X pile: " + joined(s.own_x_pile[i]) : "X pile: " + s.x_pile_sizes[i] + " cards");
        if (s.picked[i]) box.extra.push("Picked");
      });
    } else if (family === "11nimmt") {
      s.pile_tops.forEach(function (top, k) { areas.push({ label: "Pile " + (k + 1), cards: [top], tags: ["top"] }); });
      notes = ["Deck: " + s.deck_size + " cards", "Bull supply: " + s.supply, "Round starter: seat " + s.starter];
      if (s.turn_plays.length) {
        notes.push("This turn: " + s.turn_plays.map(function (p) { return p[0] + " on pile " + (p[1] + 1); }).join(", "));
      }
      seats.forEach(function (box, i) { box.extra.push("Bull cards: " + s.bulls[i]); });
    } else if (family === "hornochsen") {
      s.rows.forEach(function (r, k) {
        areas.push({ label: "Row " + (k + 1), cards: r[0], tags: (r[1] ? ["x2"] : []).concat(r[2] ? ["+5"] : []) });
      });
      if (s.steps_this_turn) notes.push("Steps this turn: " + s.steps_this_turn);
      seats.forEach(function (box, i) {
        if (i === seat) {
          box.extra.push("Specials in hand: " + joined(s.specials[i].map(function (c) { return SPECIALS[c] || String(c); })));
          box.extra.push("Collected: " + joined(s.own_pile[i]));
        } else {
          box.extra.push("Specials in hand: " + s.special_counts[i]);
        }
        box.extra.push("Scoring pile: " + s.pile_sizes[i] + " cards");
      });
    }
    return { round: s.round, scores: s.scores, to_move: s.to_move, areas: areas, seats: seats, notes: notes };
  }

  /* An option [kind, card, row, side, target] (trailing defaults left off) in words, as
     sdk Option.describe says it. */
  function describeOption(o) {
    var kind = o[0], card = o[1] || 0, row = o.length > 2 ? o[2] : -1;
    if (kind === 1) return "card " + card;
    if (kind === 2) return "take row " + (row + 1);
    if (kind === 3) return "place on row " + (row + 1) + " (" + (o[3] ? "left" : "right") + " end)";
    if (kind === 4) return "play " + card + (row >= 0 ? " on pile " + (row + 1) : "");
    if (kind === 5) return "play " + (card === 1 ? "X2" : "PLUS5") + " on row " + (row + 1);
    if (kind === 6) return "end turn";
    return "steal from seat " + o[4];
  }

  /* Decision `d` (a replay record) as `seat` may see it (-1: everything). */
  function decisionOf(d, seat) {
    var own = seat < 0 || d.seat === seat;
    var hidden = !own && SECRET_DECISIONS.indexOf(d.kind) >= 0;
    return {
      seat: d.seat, kind: d.kind,
      choice: hidden ? null : describeOption(d.options[d.choice]),
      options: own ? d.options.map(describeOption) : null,
      time_ms: d.ms || 0, fault: d.fault
    };
  }

  function cards(list) {
    var box = el("span", "cards");
    list.forEach(function (c) { box.appendChild(el("span", "card", String(c))); });
    return box;
  }

  function describe(data, d) {
    var who = "Seat " + d.seat + " (" + data.players[d.seat] + ")";
    var what = d.choice === null ? "chose face down" : d.choice;
    return who + " · " + d.kind + " · " + what;
  }

  function renderTable(data, table) {
    var box = document.getElementById("table");
    box.textContent = "";
    box.appendChild(el("p", "round", "Round " + table.round + " · scores " + table.scores.join(" / ")));
    var areas = el("div", "areas");
    table.areas.forEach(function (area) {
      var row = el("div", "area");
      row.appendChild(el("span", "label", area.label));
      row.appendChild(cards(area.cards));
      area.tags.forEach(function (t) { row.appendChild(el("span", "tag", t)); });
      areas.appendChild(row);
    });
    box.appendChild(areas);
    var seats = el("div", "seats");
    table.seats.forEach(function (seat, i) {
      var node = el("div", "seat-box" + (table.to_move.indexOf(i) >= 0 ? " to-move" : ""));
      node.setAttribute("data-seat", String(i));
      node.appendChild(el("div", "who", "Seat " + i + " · " + data.players[i] + " · " + table.scores[i]));
      var hand = el("div", "hand");
      if (seat.hand === null) {
        hand.appendChild(el("span", "hidden-hand", seat.hand_size + " hidden cards"));
      } else {
        hand.appendChild(cards(seat.hand));
      }
      node.appendChild(hand);
      seat.extra.forEach(function (line) { node.appendChild(el("div", "extra", line)); });
      seats.appendChild(node);
    });
    box.appendChild(seats);
    table.notes.forEach(function (n) { box.appendChild(el("p", "note", n)); });
  }

  function show(step) {
    var data = viewer.data, total = data.decisions.length;
    step = Math.max(0, Math.min(total, step));
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
    if (step === 0) {
      box.appendChild(el("span", "", "The deal, before any decision"));
    } else {
      var d = decisionOf(data.decisions[step - 1], viewer.seat);
      box.appendChild(el("span", "what", describe(data, d)));
      box.appendChild(el("span", "time", " · " + d.time_ms.toFixed(1) + " ms"));
      if (d.options) box.appendChild(el("span", "options", " · options: " + d.options.join(", ")));
      if (d.fault) box.appendChild(el("span", "fault", " · fault " + d.fault.kind + ": " + (d.fault.detail || "")));
    }
    renderTable(data, tableOf(viewer.family, viewer.snapshots[step], viewer.seat));
    var items = document.getElementById("decisions").children;
    Array.prototype.forEach.call(items, function (li, i) {
      li.classList.toggle("current", i === step - 1);
    });
  }

  /* Draw the match from perspective `name` ("referee" or "seat<N>"). */
  function perspective(name) {
    var data = viewer.data;
    viewer.seat = name === "referee" ? -1 : parseInt(name.slice(4), 10);
    var list = document.getElementById("decisions");
    list.textContent = "";
    data.decisions.forEach(function (raw, i) {
      var d = decisionOf(raw, viewer.seat);
      var li = el("li", d.fault ? "faulted" : "");
      var a = el("a", "", describe(data, d) + (d.fault ? " · " + d.fault.kind : ""));
      a.href = "#";
      a.addEventListener("click", function (e) { e.preventDefault(); show(i + 1); });
      li.appendChild(a);
      list.appendChild(li);
    });
    document.getElementById("replay").setAttribute("data-perspective", name);
    show(viewer.step);
  }

  function replayLoaded(data) {
    data.players = data.bots.map(function (b) { return b.name + "@" + b.version; });
    viewer.data = data;
    viewer.snapshots = expand(data.snapshots);
    document.getElementById("jump").max = String(data.decisions.length);
    perspective(document.getElementById("perspective").value);
  }

  function initReplay(section) {
    viewer = { data: null, snapshots: [], step: 0, seat: -1, family: section.getAttribute("data-family") };
    document.getElementById("first").onclick = function () { show(0); };
    document.getElementById("prev").onclick = function () { show(viewer.step - 1); };
    document.getElementById("next").onclick = function () { show(viewer.step + 1); };
    document.getElementById("last").onclick = function () { show(Infinity); };
    document.getElementById("jump").onchange = function (e) { show(parseInt(e.target.value, 10) || 0); };
    document.getElementById("perspective").onchange = function (e) {
      if (viewer.data) perspective(e.target.value);
    };
    document.addEventListener("keydown", function (e) {
      if (!viewer.data || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") { show(viewer.step + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { show(viewer.step - 1); e.preventDefault(); }
      else if (e.key === "Home") { show(0); e.preventDefault(); }
      else if (e.key === "End") { show(Infinity); e.preventDefault(); }
    });
    var script = document.createElement("script");
    script.src = section.getAttribute("data-src");
    script.onerror = function () { document.getElementById("table").textContent = "Replay data missing."; };
    document.body.appendChild(script);
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);
    var section = document.getElementById("replay");
    if (section) initReplay(section);
  });

  return { replayLoaded: replayLoaded, show: show, expand: expand, tableOf: tableOf };
})();
