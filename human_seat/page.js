/* Bullring: the human seat's page (human_seat/web.py serves it): polls /state, draws the
   table with the leaderboard's cards (BullringCards), sends the person's choice to /choose. */
"use strict";
(function () {
  var C = BullringCards, el = C.el;
  var shown = "";   // the key of what is drawn: redraw only when it changes
  var state = null;
  var sent = 0;     // the question a choice was sent for
  var POLL_MS = 400;

  function $(id) { return document.getElementById(id); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function say(text) { $("message").textContent = text || ""; }

  function optionsFor(card) {
    return state.table.options.filter(function (o) { return o.card === card; });
  }

  function send(body) {
    body.version = state.version;
    sent = state.version;
    drawStatus();
    fetch("choose", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
      .then(function (res) {
        if (!res[0]) { sent = 0; say(res[1].message); drawStatus(); } else { say(""); }
      })
      .catch(function () { sent = 0; say("the game's server cannot be reached"); drawStatus(); });
  }

  function clickCard(card) {
    if (!state || state.status !== "asking" || sent === state.version) return;
    var found = optionsFor(card);
    document.querySelectorAll("#options button").forEach(function (b) { b.classList.remove("match"); });
    if (!found.length) {   // refused here: never sent
      var inHand = state.table.hand.indexOf(card) >= 0 || state.table.draft.indexOf(card) >= 0;
      say(inHand ? card + " cannot be played now" : card + " is not in your hand");
      return;
    }
    if (found.length > 1) {
      found.forEach(function (o) { $("options").children[o.index].classList.add("match"); });
      say(card + " can go to several places: choose one below");
      return;
    }
    say("");
    send({ card: card });
  }

  function cardRow(family, cards, legal, target) {
    var box = C.cards(family, cards);
    box.querySelectorAll(".card").forEach(function (node) {
      var card = Number(node.getAttribute("data-card"));
      if (legal) {
        if (legal.indexOf(card) >= 0) node.classList.add("legal");
        node.addEventListener("click", function () { clickCard(card); });
      }
    });
    clear(target);
    target.appendChild(box);
  }

  function drawStatus() {
    var s = $("status");
    if (!state) return;
    s.className = state.status;
    if (state.status === "over") s.textContent = "The match is over.";
    else if (state.status === "asking" && sent !== state.version) s.textContent = "Your move: " + state.table.prompt;
    else s.textContent = "Waiting for the bots...";
  }

  function drawTable(t) {
    var family = t.family;
    $("head").textContent = t.variant + ", round " + t.round + ", you are seat " + t.seat;
    var happened = $("happened"); clear(happened);
    t.happened.slice(-8).forEach(function (line) { happened.appendChild(el("li", "", line)); });
    var rows = $("rows"); clear(rows);
    t.rows.forEach(function (row) {
      var tr = el("tr");
      tr.appendChild(el("td", "", row.label));
      var td = el("td"); td.appendChild(C.cards(family, row.cards)); tr.appendChild(td);
      tr.appendChild(el("td", "muted", row.note));
      rows.appendChild(tr);
    });
    var players = $("players"); clear(players);
    var head = el("tr");
    ["seat", "player", "score", "hand", "on the table"].forEach(function (h) { head.appendChild(el("th", "", h)); });
    players.appendChild(head);
    t.players.forEach(function (p) {
      var tr = el("tr", p.you ? "you" : "");
      tr.appendChild(el("td", "", String(p.seat)));
      tr.appendChild(el("td", "", p.name + (p.you ? " (you)" : "")));
      tr.appendChild(el("td", "", String(p.score)));
      tr.appendChild(el("td", "", String(p.hand_size)));
      var td = el("td");
      if (p.cards.length) td.appendChild(C.cards(family, p.cards));
      td.appendChild(el("span", "muted", " " + p.extra));
      tr.appendChild(td);
      players.appendChild(tr);
    });
    $("notes").textContent = t.notes.join("; ");
    var legal = t.options.map(function (o) { return o.card; }).filter(function (c) { return c > 0; });
    cardRow(family, t.hand, legal, $("hand"));
    $("specials").textContent = t.specials.length ? "specials: " + t.specials.join(" ") : "";
    $("draft-box").hidden = !t.draft.length;
    cardRow(family, t.draft, legal, $("draft"));
    $("prompt").textContent = t.prompt;
    var options = $("options"); clear(options);
    t.options.forEach(function (o) {
      var b = el("button", "", (o.index + 1) + ". " + o.label);
      b.type = "button";
      b.setAttribute("data-index", String(o.index));
      b.addEventListener("click", function () {
        if (state.status === "asking" && sent !== state.version) send({ index: o.index });
      });
      options.appendChild(b);
    });
  }

  function drawEnd(end, replayReady) {
    var box = $("end"); clear(box); box.hidden = false;
    box.appendChild(el("h2", "", "Result"));
    var table = el("table", "players");
    end.players.forEach(function (p) {
      var tr = el("tr", p.seat === end.seat ? "you" : "");
      tr.appendChild(el("td", "", "seat " + p.seat));
      tr.appendChild(el("td", "", p.name + (p.seat === end.seat ? " (you)" : "")));
      tr.appendChild(el("td", "", "score " + p.score));
      tr.appendChild(el("td", "", "rank " + p.rank));
      table.appendChild(tr);
    });
    box.appendChild(table);
    var watch = el("p");
    if (replayReady) {
      var view = el("a", "", "Watch the match's replay");
      view.id = "replay-page-link";
      view.href = "replay.html";
      watch.appendChild(view);
    } else {
      watch.appendChild(el("span", "muted", "the replay is being written..."));
    }
    box.appendChild(watch);
    var p = el("p");
    if (end.replay) {
      var a = el("a", "", "the replay file");
      a.id = "replay-link";
      a.href = "replay";
      a.setAttribute("download", end.replay.split("/").pop());
      p.appendChild(a);
      p.appendChild(el("span", "muted", " (" + end.replay + (replayReady ? "" : ", being written") +
        "): bullring replay " + end.replay + ", or bullring debug " + end.replay + " to ask your bot"));
    } else {
      p.appendChild(el("span", "muted", "no replay kept (bullring play --replay-out FILE keeps one)"));
    }
    box.appendChild(p);
    $("options").hidden = true;
    $("hand-box").hidden = true;  // the hand of the last question: nothing left to play
    $("prompt").textContent = "";
    $("clock").textContent = "";
  }

  function poll() {
    fetch("state", { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (s) {
        state = s;
        document.body.setAttribute("data-status", s.status);
        document.body.setAttribute("data-version", String(s.version));
        var key = s.status + "/" + s.version + "/" + (sent === s.version) + "/" + s.replay_ready;
        if (key !== shown) {
          shown = key;
          if (s.table) drawTable(s.table);
          if (s.end) drawEnd(s.end, s.replay_ready);
          drawStatus();
        }
        if (s.table && s.status !== "over") {
          $("clock").textContent = s.clock === null ? "no clock" : Math.round(s.clock) + " s left";
        }
        if (s.status !== "over" || !s.replay_ready) setTimeout(poll, POLL_MS);
      })
      .catch(function () {
        if (!state || state.status !== "over") {
          $("status").textContent = "The game's server has gone (the match has ended).";
        }
      });
  }

  C.installSprite();
  poll();
})();
