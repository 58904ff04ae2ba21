/* Bullring leaderboard: cards, drawn as the game draws them (no image files), for the
   replay viewer (bullring.js, loaded after this file). */
"use strict";
var BullringCards = (function () {
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var SVGNS = "http://www.w3.org/2000/svg";
  var HORNOCHSEN_RED = { 55: 7, 11: 5, 22: 5, 33: 5, 44: 5, 66: 5, 77: 5, 88: 5,
    10: 3, 20: 3, 30: 3, 40: 3, 50: 3, 60: 3, 70: 3, 80: 3, 90: 3, 5: 2, 25: 2, 45: 2, 75: 2, 95: 2 };
  var HORNOCHSEN_GREEN_TWO = { 15: 1, 35: 1, 42: 1, 52: 1, 65: 1, 85: 1 };

  /* Bull heads of a 6 nimmt! / X nimmt! / 11 nimmt! card (sdk.game.cards.nimmt_heads). */
  function nimmtHeads(c) {
    if (c === 55) return 7;
    if (c % 11 === 0) return 5;
    if (c % 10 === 0) return 3;
    if (c % 5 === 0) return 2;
    return 1;
  }

  /* Signed points of a Hornochsen! card (sdk.game.cards.hornochsen_points). */
  function hornochsenPoints(c) {
    if (HORNOCHSEN_RED[c]) return -HORNOCHSEN_RED[c];
    return HORNOCHSEN_GREEN_TWO[c] ? 2 : 1;
  }

  function bullIcon() {
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", "0 0 20 18");
    svg.setAttribute("class", "bull");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(SVGNS, "use");
    use.setAttribute("href", "#bull-head");
    svg.appendChild(use);
    return svg;
  }

  function installSprite() {
    if (document.getElementById("bull-head")) return;
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "sprite");
    svg.setAttribute("aria-hidden", "true");
    var symbol = document.createElementNS(SVGNS, "symbol");
    symbol.setAttribute("id", "bull-head");
    symbol.setAttribute("viewBox", "0 0 20 18");
    [
      "M1 1.5c.2 4 2.4 6.2 5.6 6.2h6.8c3.2 0 5.4-2.2 5.6-6.2-1.2 2.2-3.2 3.3-5.6 3.3H6.6C4.2 4.8 2.2 3.7 1 1.5z",
      "M5.5 7h9v4.8c0 3.4-2.3 5.7-4.5 5.7s-4.5-2.3-4.5-5.7z"
    ].forEach(function (d) {
      var path = document.createElementNS(SVGNS, "path");
      path.setAttribute("d", d);
      symbol.appendChild(path);
    });
    svg.appendChild(symbol);
    document.body.insertBefore(svg, document.body.firstChild);
  }

  /* A card of `family`: its number (the element's only text), its heads and colour. */
  function cardNode(family, c) {
    var node = el("span", "card");
    var heads, color;
    if (family === "hornochsen") {
      var points = hornochsenPoints(c);
      heads = Math.abs(points);
      color = points < 0 ? "red" : "green";
    } else {
      heads = nimmtHeads(c);
      color = "h" + heads;
    }
    node.className = "card " + color;
    node.setAttribute("data-card", String(c));
    node.setAttribute("data-heads", String(heads));
    node.setAttribute("data-color", color);
    node.title = c + ": " + heads + (heads === 1 ? " head" : " heads") +
      (family === "hornochsen" ? (color === "red" ? " (red: minus)" : " (green: plus)") : "");
    node.appendChild(el("b", "", String(c)));
    var row = el("span", "heads");
    for (var i = 0; i < heads; i++) row.appendChild(bullIcon());
    node.appendChild(row);
    return node;
  }

  function specialNode(name) {
    var node = el("span", "tag special", name);
    node.title = name === "x2" ? "x2 special: doubles the row" : "+5 special: adds 5 points";
    return node;
  }

  function cards(family, list, marks) {
    var box = el("span", "cards");
    list.forEach(function (c, i) {
      if (i) box.appendChild(document.createTextNode(" "));
      var node = cardNode(family, c);
      if (marks && marks.indexOf(c) >= 0) node.classList.add("last");
      box.appendChild(node);
    });
    return box;
  }

  return { SVGNS: SVGNS, el: el, nimmtHeads: nimmtHeads, hornochsenPoints: hornochsenPoints, installSprite: installSprite, cardNode: cardNode, specialNode: specialNode, cards: cards };
})();
