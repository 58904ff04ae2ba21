/* Bullring leaderboard: sortable tables and the replay viewer. Vanilla JS, no fetch():
   per-match data files are <script> tags that call Bullring.replayLoaded(data), so the
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

  /* ---- replay viewer ---- */
  var viewer = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function expand(frames) {
    var tables = [];
    frames.forEach(function (frame, k) {
      if (k === 0) { tables.push(frame); return; }
      var table = Object.assign({}, tables[k - 1]);
      Object.keys(frame).forEach(function (key) {
        if (key === "seats") {
          table.seats = table.seats.map(function (old, i) {
            return frame.seats[i] === null ? old : frame.seats[i];
          });
        } else {
          table[key] = frame[key];
        }
      });
      tables.push(table);
    });
    return tables;
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
      var d = data.decisions[step - 1];
      box.appendChild(el("span", "what", describe(data, d)));
      box.appendChild(el("span", "time", " · " + d.time_ms.toFixed(1) + " ms"));
      if (d.options) box.appendChild(el("span", "options", " · options: " + d.options.join(", ")));
      if (d.fault) box.appendChild(el("span", "fault", " · fault " + d.fault.kind + ": " + (d.fault.detail || "")));
    }
    renderTable(data, viewer.tables[step]);
    var items = document.getElementById("decisions").children;
    Array.prototype.forEach.call(items, function (li, i) {
      li.classList.toggle("current", i === step - 1);
    });
  }

  function replayLoaded(data) {
    var step = viewer.data ? viewer.step : 0;
    viewer.data = data;
    viewer.tables = expand(data.frames);
    document.getElementById("jump").max = String(data.decisions.length);
    var list = document.getElementById("decisions");
    list.textContent = "";
    data.decisions.forEach(function (d, i) {
      var li = el("li", d.fault ? "faulted" : "");
      var a = el("a", "", describe(data, d) + (d.fault ? " · " + d.fault.kind : ""));
      a.href = "#";
      a.addEventListener("click", function (e) { e.preventDefault(); show(i + 1); });
      li.appendChild(a);
      list.appendChild(li);
    });
    document.getElementById("replay").setAttribute("data-perspective", data.perspective);
    show(step);
  }

  function load(name) {
    var source = viewer.sources.filter(function (s) { return s.name === name; })[0];
    var script = document.createElement("script");
    script.src = source.src;
    script.onerror = function () { document.getElementById("table").textContent = "Replay data missing."; };
    document.body.appendChild(script);
  }

  function initReplay(section) {
    viewer = { sources: JSON.parse(section.getAttribute("data-sources")), data: null, step: 0 };
    document.getElementById("first").onclick = function () { show(0); };
    document.getElementById("prev").onclick = function () { show(viewer.step - 1); };
    document.getElementById("next").onclick = function () { show(viewer.step + 1); };
    document.getElementById("last").onclick = function () { show(Infinity); };
    document.getElementById("jump").onchange = function (e) { show(parseInt(e.target.value, 10) || 0); };
    document.getElementById("perspective").onchange = function (e) { load(e.target.value); };
    document.addEventListener("keydown", function (e) {
      if (!viewer.data || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") { show(viewer.step + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { show(viewer.step - 1); e.preventDefault(); }
      else if (e.key === "Home") { show(0); e.preventDefault(); }
      else if (e.key === "End") { show(Infinity); e.preventDefault(); }
    });
    load(viewer.sources[0].name);
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);
    var section = document.getElementById("replay");
    if (section) initReplay(section);
  });

  return { replayLoaded: replayLoaded, show: show, expand: expand };
})();
