/* Bullring leaderboard: sortable tables, and the standings' filter box and retired-versions
   toggle. Loaded before bullring_cards.js and bullring.js (base.html). */
"use strict";
var BullringTables = (function () {
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

  /* ---- standings: the filter box and the retired-versions toggle ---- */
  function initStandings(table) {
    var filter = document.getElementById("filter");
    var retired = document.getElementById("show-retired");
    function apply() {
      var words = filter ? filter.value.trim().toLowerCase() : "";
      var showRetired = !retired || retired.checked;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var text = (row.getAttribute("data-search") || row.textContent).toLowerCase();
        var hide = (words && text.indexOf(words) < 0) || (!showRetired && row.classList.contains("retired"));
        row.hidden = !!hide;
      });
    }
    if (filter) filter.addEventListener("input", apply);
    if (retired) retired.addEventListener("change", apply);
    apply();
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);
    var standings = document.getElementById("standings");
    if (standings) initStandings(standings);
  });

  return { makeSortable: makeSortable, initStandings: initStandings };
})();
