/* Bullring leaderboard: the replay viewer's score graph (SVG, no library). Loaded after
   bullring_cards.js and before bullring.js (base.html). */
"use strict";
var BullringGraph = (function () {
  var SVGNS = BullringCards.SVGNS, el = BullringCards.el;
  var SEAT_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

  /* Each seat's score after every decision, into #score-graph: it keeps its marker and
     x scale in `viewer` (viewer.marker, viewer.sx) and a click calls show(step). */
  function scoreGraph(data, viewer, show) {
    var box = document.getElementById("score-graph");
    if (!box) return;
    box.textContent = "";
    var w = 640, h = 160, left = 34, right = 8, top = 8, bottom = 20;
    var steps = viewer.snapshots.length - 1;
    var values = viewer.snapshots.map(function (s) { return s.scores; });
    var lo = 0, hi = 1;
    values.forEach(function (row) { row.forEach(function (v) { lo = Math.min(lo, v); hi = Math.max(hi, v); }); });
    var sx = function (x) { return left + (steps ? x / steps : 0) * (w - left - right); };
    var sy = function (y) { return top + (1 - (y - lo) / (hi - lo)) * (h - top - bottom); };
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("class", "chart score-chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Each seat's score after every decision");
    function add(tag, attrs, text) {
      var node = document.createElementNS(SVGNS, tag);
      Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
      if (text !== undefined) node.textContent = text;
      svg.appendChild(node);
      return node;
    }
    add("rect", { x: left, y: top, width: w - left - right, height: h - top - bottom, "class": "plot" });
    niceTicks(lo, hi, 4).forEach(function (t) {
      add("line", { x1: left, x2: w - right, y1: sy(t), y2: sy(t), "class": "grid" });
      add("text", { x: left - 4, y: sy(t) + 4, "class": "tick", "text-anchor": "end" }, String(t));
    });
    add("text", { x: w - right, y: h - 4, "class": "tick", "text-anchor": "end" }, "decision " + steps);
    data.players.forEach(function (name, seat) {
      var points = values.map(function (row, x) { return sx(x).toFixed(1) + "," + sy(row[seat]).toFixed(1); });
      var line = add("polyline", { points: points.join(" "), fill: "none", stroke: SEAT_COLORS[seat % SEAT_COLORS.length], "stroke-width": 2 });
      var title = document.createElementNS(SVGNS, "title");
      title.textContent = "Seat " + seat + ": " + name;
      line.appendChild(title);
    });
    viewer.marker = add("line", { x1: 0, x2: 0, y1: top, y2: h - bottom, "class": "marker" });
    svg.addEventListener("click", function (e) {
      var rect = svg.getBoundingClientRect();
      var x = (e.clientX - rect.left) / rect.width * w;
      show(Math.round((x - left) / (w - left - right) * steps));
    });
    viewer.sx = sx;
    box.appendChild(svg);
    var legend = el("p", "legend");
    data.players.forEach(function (name, seat) {
      var item = el("span", "key");
      var swatch = el("span", "swatch");
      swatch.style.background = SEAT_COLORS[seat % SEAT_COLORS.length];
      item.appendChild(swatch);
      item.appendChild(document.createTextNode("Seat " + seat + ": " + name));
      legend.appendChild(item);
    });
    box.appendChild(legend);
  }

  /* Round axis ticks (1, 2 or 5 times a power of ten), as leaderboard/charts.py makes. */
  function niceTicks(lo, hi, count) {
    var span = hi - lo || 1, raw = span / count;
    var mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (m) { return m * mag; }).filter(function (s) { return s >= raw; })[0];
    var out = [];
    for (var t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Math.round(t * 1e6) / 1e6);
    return out;
  }

  return { SEAT_COLORS: SEAT_COLORS, scoreGraph: scoreGraph, niceTicks: niceTicks };
})();
