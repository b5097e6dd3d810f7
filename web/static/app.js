// The pages' one script: draws the table from the state, sends moves to the JSON API,
// and re-draws from every Server-Sent Event. No framework, no build step: the Pi is offline.
"use strict";

(function () {
  const RANKS = ["9", "10", "J", "Q", "K", "A"]; // a card die's values 1..6, as the API names them
  // seed003.js (bluff and board) and teach.js (/camera), loaded after this script, read,
  // fill, translate, tell and draw with these: one copy of each for every page
  window.scorerPage = { el, $, readJson, fill, translate, toast, showTimer, RANKS, rankLabels };
  const page = document.body.dataset.page;
  // a phone that is not paired watches: no live buttons that fail on tap
  const paired = document.body.dataset.paired !== "false";
  // the kiosk's touch screen and a paired phone do the same things: tap a die, a cell, undo, type
  const atTable = (page === "play" || page === "kiosk") && paired;
  const T = readJson("strings") || {};
  let state = readJson("state");
  let selectedCell = null;
  let pickerIndex = null;
  let deadlineAt = null; // local ms when the turn timer runs out
  let lastMessageId = 0;
  let lastStatus = null;
  let shownVersion = -1;

  function readJson(id) {
    const el = document.getElementById(id);
    if (!el) return null;
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }

  function $(id) { return document.getElementById(id); }

  // The six letters a game's poker dice print (its set of dice: 9 10 J Q K A, or
  // 9 10 В Д К Т on Russian and Ukrainian dice): what every page draws on a card die.
  // The state's dice keep the API's Latin ``rank``; only the drawing follows the set.
  function rankLabels(s) {
    const labels = s && s.rank_labels;
    return Array.isArray(labels) && labels.length === 6 ? labels : RANKS;
  }

  // A card die's face as drawn (null for a pip die): the set's letter for its value.
  function shownRank(die, value) {
    return die && die.rank ? rankLabels(state)[(value ?? die.value) - 1] : null;
  }

  function fill(template, values) {
    return String(template ?? "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of [].concat(children || [])) {
      if (child !== null && child !== undefined) {
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
    }
    return node;
  }

  // -- talking to the server --------------------------------------------------------

  let toastTimer = null;
  function toast(message, kind) {
    const box = $("toast");
    if (!box || !message) return;
    box.textContent = message;
    box.dataset.kind = kind || "info";
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, 3500);
  }

  let moving = false; // one move at a time: a double tap must not send the same move twice

  async function api(path, body) {
    const options = { method: "POST", headers: { "Content-Type": "application/json" } };
    const sentVersion = body && body.version;
    options.body = JSON.stringify(body || {});
    let response;
    try {
      response = await fetch(path, options);
    } catch (err) {
      toast(T.offline || "offline", "error");
      throw err;
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      if (data.state) render(data.state);
      const behind = data.error === "StaleState"
        || (data.state && sentVersion !== undefined && data.state.version !== sentVersion);
      toast(behind ? T.stale : translate(data.message || response.statusText), "error");
      const error = new Error(data.message || response.statusText);
      error.status = response.status;
      throw error;
    }
    if (data && data.ruleset) render(data);
    else if (data && data.state && data.state.ruleset) render(data.state);
    return data;
  }

  function gamePath(suffix) {
    return "/api/games/" + state.id + suffix;
  }

  function move(suffix, body) {
    if (!state) return Promise.reject(new Error("no game"));
    if (moving) return Promise.reject(new Error("a move is on its way"));
    moving = true;
    return api(gamePath(suffix), Object.assign({ version: state.version }, body || {}))
      .finally(() => { moving = false; });
  }

  // -- names ------------------------------------------------------------------------

  function cellName(cell) {
    if (cell.startsWith("round_")) return fill(T.round_n, { n: cell.slice(6) });
    const special = (T.ruleset_cells || {})[state.ruleset] || {};
    return special[cell] || (T.cells || {})[cell] || cell.replace(/_/g, " ");
  }

  let linePatterns = null;
  function translate(message) {
    if (!message) return message;
    const known = (T.messages || {})[message];
    if (known) return known;
    if (!linePatterns) linePatterns = (T.lines || []).map(([source, text]) => [new RegExp(source, "s"), text]);
    for (const [pattern, text] of linePatterns) {
      const match = pattern.exec(message);
      if (!match) continue;
      const values = {};
      for (const [name, value] of Object.entries(match.groups || {})) {
        values[name] = name === "cell" ? cellName(value.replace(/^'|'$/g, "")) : translate(value);
      }
      return fill(text, values);
    }
    return message;
  }

  function cameraText(status) {
    if (status.camera === "none") return T.camera_none;
    if (status.camera === "failed") return fill(T.camera_problem, { problem: translate(status.camera_problem || "?") });
    if (status.reader !== "ok") return fill(T.no_reader, { name: status.camera_name });
    return fill(T.camera_ok, { name: status.camera_name });
  }

  function pendingText(pending) {
    if (pending.missing && pending.missing.length) {
      const cards = state && state.dice_kind === "cards";
      const dice = pending.missing.map((m) => fill(T.die_held_at, {
        n: m.index + 1, value: cards ? rankLabels(state)[m.value - 1] : m.value,
      })).join(", ");
      return fill(T.pending_held, { dice: dice });
    }
    if (pending.no_die !== null && pending.no_die !== undefined) {
      return fill(T.pending_no_die, { n: pending.no_die + 1 });
    }
    const seen = (pending.seen && pending.seen.length ? pending.seen : pending.values || []).length;
    if (pending.left_out && pending.left_out.length) {
      return fill(T.pending_over, { seen: seen, expected: pending.expected });
    }
    return fill(T.pending, { seen: seen, expected: pending.expected });
  }

  function bonusName(bonus) {
    return (T.bonuses || {})[bonus] || bonus.replace(/_/g, " ");
  }

  function dieLabel(die) {
    return shownRank(die) || String(die.value);
  }

  const PIPS = {
    1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9],
  };

  function dieFace(value, rank) {
    if (rank) return el("span", { class: "rank", text: rank });
    const face = el("span", { class: "pips", "aria-hidden": "true" });
    for (let spot = 1; spot <= 9; spot++) {
      face.append(el("i", { class: PIPS[value].includes(spot) ? "pip" : "" }));
    }
    return face;
  }

  // -- drawing ---------------------------------------------------------------------

  function render(next) {
    if (!next) return;
    if (state && next.id !== state.id && page !== "kiosk" && page !== "play") return;
    // a move's reply can arrive after the event of a later move: never draw the game back
    if (state && next.id === state.id && next.version < state.version) return;
    state = next;
    if (state.version !== shownVersion) selectedCell = shownVersion === -1 ? selectedCell : null;
    shownVersion = state.version;
    const empty = $("empty");
    if (empty) empty.hidden = true;
    const board = $("board");
    if (board) {
      board.classList.remove("no-game");
      board.dataset.players = state.players.length;
    }
    drawBar();
    drawDice();
    drawSheet();
    drawWriteBar();
    drawStatus(state.table);
    drawBanner();
    drawFlow();
    const picker = $("picker");
    if (picker && picker.open && pickerIndex !== null) openPicker(pickerIndex);
  }

  function drawBar() {
    const name = state.players[state.current_player];
    const who = $("current-player");
    if (who) who.textContent = state.finished ? "" : fill(T.its_turn, { name: name });
    const count = $("throw-count");
    if (count) {
      count.textContent = state.finished ? "" : state.throw
        ? fill(T.throw_n, { n: state.throw, of: state.throws_allowed })
        : T.throw_none;
    }
    if (rolloffPending()) {
      if (who) who.textContent = fill(T.its_turn, { name: state.players[state.rolloff.next] });
      if (count) count.textContent = T.rolloff_how;
    }
    const round = $("round");
    if (round) round.textContent = fill(T.round_n, { n: state.round });
    const turnNotes = [];
    if (state.committed && !state.finished) turnNotes.push(fill(T.committed_to, { cell: cellName(state.committed) }));
    const banked = (state.notes || {}).banked;
    if (banked && !state.finished && banked[state.current_player]) {
      turnNotes.push(fill(T.banked, { n: banked[state.current_player] }));
    }
    const misses = state.misses || [];
    if (misses.length && !state.finished) {
      turnNotes.push(fill(T.misses_turn, { names: misses.map((i) => state.players[i]).join(", ") }));
    }
    for (const box of document.querySelectorAll(".turn-notes")) {
      box.textContent = turnNotes.join(" · ");
      box.hidden = !turnNotes.length;
    }
    const title = $("ruleset-title");
    if (title) title.textContent = (T.rulesets || {})[state.ruleset] || state.ruleset;
    if (state.timer && state.timer.remaining !== undefined && state.timer.remaining !== null) {
      deadlineAt = Date.now() + state.timer.remaining * 1000;
    } else {
      deadlineAt = null;
    }
    tickTimer();
  }

  // a turn timer's box: the time left to ``deadline`` (local ms) as m:ss, hidden without one
  function showTimer(box, deadline) {
    if (!box) return;
    if (!deadline) { box.hidden = true; return; }
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    box.hidden = false;
    box.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    box.classList.toggle("low", left <= 10);
  }

  function tickTimer() {
    showTimer($("timer"), state && !state.finished ? deadlineAt : null);
  }
  setInterval(tickTimer, 250);

  function drawDice() {
    const box = $("dice");
    if (!box) return;
    box.replaceChildren();
    const count = (state.ruleset_info && state.ruleset_info.dice) || 5;
    const unsure = new Set(state.unsure || []);
    const dice = state.dice || [];
    for (let i = 0; i < count; i++) {
      const die = dice[i];
      if (!die) {
        box.append(el("div", { class: "die blank", "aria-hidden": "true" }));
        continue;
      }
      const classes = ["die"];
      if (die.held) classes.push("held");
      if (unsure.has(i)) classes.push("unsure");
      if (die.corrected) classes.push("corrected");
      if (die.rank) classes.push("card");
      const label = [fill(T.die_n, { n: i + 1 }), dieLabel(die)];
      if (die.held) label.push(T.held);
      const guess = unsure.has(i) && die.guess ? fill(T.or_face, { face: shownRank(die, die.guess) || die.guess }) : null;
      if (guess) label.push(guess);
      if (unsure.has(i)) label.push(T.tap_to_confirm);
      const node = el(atTable ? "button" : "div", {
        class: classes.join(" "),
        type: atTable ? "button" : null,
        "aria-label": label.join(", "),
        dataset: { index: i, value: die.value },
        onclick: atTable ? () => openPicker(i) : null,
      }, [dieFace(die.value, shownRank(die))]);
      if (guess) node.append(el("span", { class: "die-guess", text: guess }));
      if (unsure.has(i)) node.append(el("span", { class: "die-note", text: T.tap_to_confirm }));
      else if (die.held) node.append(el("span", { class: "die-note", text: T.held }));
      box.append(node);
    }
    const hand = $("hand-name");
    if (hand) {
      const key = state.hand;
      hand.textContent = key ? ((T.hands || {})[key] || key.replace(/_/g, " ")) : "";
    }
  }

  // -- the throw's photo: each die boxed with its value; a tap on one corrects it -------------

  function faceLabel(value) {
    return state && state.dice_kind === "cards" ? rankLabels(state)[value - 1] || String(value) : String(value);
  }

  function drawPhoto() {
    const figure = $("photo");
    if (!figure || !state) return;
    const img = $("photo-image");
    const pending = lastStatus && lastStatus.pending;
    let url = null;
    let marks = [];
    let note = "";
    if (pending && pending.game_id === state.id && pending.photo) {
      // a reading that did not fit: what the camera saw, while the dice are typed in
      url = pending.photo;
      const out = new Set(pending.left_out || []);
      marks = (pending.seen || []).map((die, i) => ({
        box: die.box, label: faceLabel(die.value), index: i, leftOut: out.has(i),
      }));
      // the line under the dice says what went wrong; the photo says what a tap on it does
      note = atTable && marks.length < pending.expected ? T.tap_missed : "";
    } else if (state.photo) {
      const unsure = new Set(state.unsure || []);
      url = state.photo;
      marks = (state.dice || []).map((die, i) => ({
        box: die.box, index: i, label: dieLabel(die),
        unsure: unsure.has(i), held: die.held, corrected: die.corrected,
      }));
      note = atTable ? T.tap_photo : "";
    }
    figure.hidden = !url;
    figure.classList.toggle("pending", !!(url && url === (pending && pending.photo)));
    if (!url) { img.removeAttribute("src"); return; }
    if (img.getAttribute("src") !== url) img.src = url;
    $("photo-note").textContent = note;
    const tap = atTable && url === state.photo ? openPicker : null;
    markPhoto(img, marks.filter((m) => m.box), tap);
  }

  // Draws ``marks`` ({box: [x, y, w, h] in the photo's pixels, label, unsure, held, index})
  // over ``img``, whose parent is the positioned frame; ``onTap(index)`` makes them buttons.
  function markPhoto(img, marks, onTap) {
    const frame = img.parentElement;
    for (const old of frame.querySelectorAll(".photo-box")) old.remove();
    for (const m of marks) {
      const classes = ["photo-box"];
      if (m.unsure) classes.push("unsure");
      if (m.held) classes.push("held");
      if (m.corrected) classes.push("corrected");
      if (m.leftOut) classes.push("left-out");
      const label = [fill(T.die_n || "{n}", { n: m.index + 1 }), m.label];
      if (m.unsure) label.push(T.tap_to_confirm);
      if (m.held) label.push(T.held);
      if (m.leftOut) label.push(T.left_out);
      frame.append(el(onTap ? "button" : "span", {
        class: classes.join(" "),
        type: onTap ? "button" : null,
        "aria-label": label.join(", "),
        dataset: { index: m.index, box: m.box.join(" ") },
        onclick: onTap ? (e) => { e.preventDefault(); e.stopPropagation(); onTap(m.index); } : null,
      }, [el("span", { class: "photo-label", text: m.label + (m.unsure ? "?" : "") })]));
    }
    const place = () => {
      const w = img.naturalWidth;
      const h = img.naturalHeight;
      if (!w || !h) return;
      for (const node of frame.querySelectorAll(".photo-box")) {
        const [x, y, bw, bh] = node.dataset.box.split(" ").map(Number);
        Object.assign(node.style, {
          left: (100 * x / w) + "%", top: (100 * y / h) + "%",
          width: (100 * bw / w) + "%", height: (100 * bh / h) + "%",
        });
      }
      frame.classList.add("placed");
    };
    img.onload = place;
    if (img.complete) place();
  }

  // Where on the photo (its own pixels) a tap landed.
  function photoPoint(event, img) {
    const rect = img.getBoundingClientRect();
    return [
      Math.round((event.clientX - rect.left) * img.naturalWidth / rect.width),
      Math.round((event.clientY - rect.top) * img.naturalHeight / rect.height),
    ];
  }

  // A tap on the photo beside every box: a die the camera missed may lie there. Today the
  // dice are then typed in; a reader that learns (issue 24) can take the point instead.
  function tappedBesideTheDice(point) {
    if (!atTable || !state) return;
    const pending = lastStatus && lastStatus.pending;
    if (pending && pending.game_id === state.id && pending.photo
        && $("photo-image").getAttribute("src") === pending.photo) {
      openMissedPicker(point); // issue 24: the die joins the reading, and teaches the set
      return;
    }
    if (!state.photo) return;
    document.body.dataset.lastPhotoTap = point.join(",");
    openTyped();
  }

  function openTyped() {
    const typed = $("typed");
    if (!typed) return;
    typed.hidden = false;
    const input = $("typed-dice");
    if (!input.value && state && state.dice && state.dice.length) {
      input.value = state.dice.map((d) => shownRank(d) || d.value).join(" ");
    }
    drawTypedPad();
  }

  // Face buttons under the typed field: the kiosk's touch screen has no keyboard.
  function drawTypedPad() {
    const form = $("typed");
    if (!form || !state) return;
    let pad = $("typed-pad");
    if (!pad) {
      pad = el("div", { class: "typed-pad", id: "typed-pad" });
      form.append(pad);
    }
    const cards = state.dice_kind === "cards";
    const kind = cards ? "cards:" + rankLabels(state).join(" ") : "pips";  // the set's letters
    if (pad.dataset.kind === kind) return;
    pad.dataset.kind = kind;
    pad.replaceChildren();
    const input = $("typed-dice");
    for (let v = 1; v <= 6; v++) {
      const face = cards ? rankLabels(state)[v - 1] : String(v);
      pad.append(el("button", {
        type: "button", class: "button pad-key", dataset: { face },
        onclick: () => { input.value = (input.value.trim() + " " + face).trim(); },
      }, face));
    }
    pad.append(el("button", {
      type: "button", class: "button pad-key", "aria-label": T.erase, text: "⌫",
      onclick: () => { input.value = input.value.trim().split(/\s+/).slice(0, -1).join(" "); },
    }));
  }

  function drawSheet() {
    const table = $("sheet");
    if (!table) return;
    const players = state.players;
    const cells = (state.ruleset_info && state.ruleset_info.cells) || [];
    const scores = state.scores || {};
    const canWrite = atTable && !state.finished && state.throw > 0;
    const notes = state.notes || {};
    const pastHands = {};
    for (const r of notes.past_hands || []) pastHands["round_" + r.round] = r;
    table.replaceChildren();
    table.style.setProperty("--players", players.length);
    table.dataset.players = players.length;
    const head = el("tr", {}, [el("th", { class: "corner", scope: "col" })]);
    players.forEach((name, p) => {
      const classes = ["player"];
      if (p === state.current_player && !state.finished) classes.push("current");
      if (state.finished && (state.winners || []).includes(p)) classes.push("winner");
      const star = classes.includes("winner") ? el("span", { class: "star", text: " ★" }) : null;
      head.append(el("th", { class: classes.join(" "), scope: "col", title: name }, [name, star]));
    });
    table.append(el("thead", {}, head));
    const body = el("tbody");
    const upper = ["ones", "twos", "threes", "fours", "fives", "sixes"];
    cells.forEach((cell, index) => {
      const row = el("tr", { dataset: { cell: cell } });
      if (index > 0 && upper.includes(cells[index - 1]) && !upper.includes(cell)) {
        row.classList.add("split");
      }
      row.append(el("th", { scope: "row", class: "cell-name", text: cellName(cell) }));
      players.forEach((_, p) => {
        const written = state.sheet[p] ? state.sheet[p][cell] : null;
        const current = p === state.current_player && !state.finished;
        const td = el("td", { class: current ? "current" : "" });
        // issue 26: an extra round adds to a written cell, so that cell is offered again
        const extraOption = current && state.extra_turns > 0 && cell in scores;
        if (written !== null && written !== undefined && !extraOption) {
          td.textContent = written;
          td.classList.add("written");
          if (written === 0) td.classList.add("zero");
          const mark = ((notes.marks || [])[p] || {})[cell];
          if (mark) td.append(el("sup", { class: "mark", text: mark }));
          const past = pastHands[cell];
          if (past && past.hands[p]) {
            td.append(el("span", { class: "past-hand", text: (T.hands || {})[past.hands[p]] || past.hands[p] }));
          }
        } else if (current && cell in scores) {
          td.classList.add("option");
          td.textContent = extraOption
            ? written + " " + (scores[cell] < 0 ? "" : "+") + scores[cell]
            : scores[cell];
          if (canWrite) {
            td.classList.add("tappable");
            td.setAttribute("role", "button");
            td.tabIndex = 0;
            td.addEventListener("click", () => selectCell(cell));
            td.addEventListener("keydown", (e) => { if (e.key === "Enter") selectCell(cell); });
          }
        } else if (current && canWrite && isOpenStrikable(cell)) {
          td.classList.add("tappable", "strikable");
          td.setAttribute("role", "button");
          td.tabIndex = 0;
          td.textContent = "·";
          td.addEventListener("click", () => selectCell(cell));
        }
        if (selectedCell === cell && current) td.classList.add("selected");
        row.append(td);
      });
      body.append(row);
      if (cell === "sixes" && notes.subtotals) body.append(subtotalRow(notes.subtotals));
    });
    for (const bonus of bonusKeys()) {
      const row = el("tr", { class: "bonus" }, [
        el("th", { scope: "row", class: "cell-name", text: bonusName(bonus) }),
      ]);
      players.forEach((_, p) => {
        const value = (state.bonuses[p] || {})[bonus];
        const current = p === state.current_player && !state.finished;
        row.append(el("td", { class: current ? "current" : "", text: value ? value : "" }));
      });
      body.append(row);
    }
    const total = el("tr", { class: "total" }, [
      el("th", { scope: "row", class: "cell-name", text: T.total }),
    ]);
    players.forEach((_, p) => {
      const winner = state.finished && (state.winners || []).includes(p);
      total.append(el("td", {
        class: (p === state.current_player && !state.finished ? "current " : "") + (winner ? "winner" : ""),
        text: state.totals[p],
      }));
    });
    body.append(total);
    if (state.hands && state.hands.some((h) => h)) {
      const row = el("tr", { class: "bonus" }, [el("th", { scope: "row", class: "cell-name", text: cellName("hand") })]);
      state.hands.forEach((h) => row.append(el("td", { text: h ? ((T.hands || {})[h] || h) : "" })));
      body.append(row);
    }
    if (state.settlement) {
      const row = el("tr", { class: "bonus settlement" }, [el("th", { scope: "row", class: "cell-name", text: T.settlement })]);
      settlementResults().forEach((v) => row.append(el("td", { text: (v > 0 ? "+" : "") + v.toFixed(2) })));
      body.append(row);
    }
    table.append(body);
    drawCoach(table);
    // every row the sheet has (the header too), so the kiosk sizes its text to show them all
    // (a winner's name may wrap onto a second line: one row more)
    table.style.setProperty("--rows", table.rows.length + (state.finished ? 1 : 0));
    if (page === "kiosk") fitWinners(table);
  }

  // A winner's name is never cut: it wraps, and where two lines are not enough its
  // letters get smaller until they are.
  function fitWinners(table) {
    for (const th of table.querySelectorAll("th.player.winner")) {
      th.style.fontSize = "";
      let size = parseFloat(getComputedStyle(th).fontSize);
      const floor = size * 0.5;
      while (linesOf(th) > 2 && size > floor) {
        size *= 0.9;
        th.style.fontSize = size + "px";
      }
    }
  }

  function linesOf(node) {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size;
  }

  // -- issue 26: the whole-game flow (roll-off, extra rounds, coach mode, settlement) -------

  function settlementResults() {
    const s = state.settlement;
    return Array.isArray(s) ? s : (s && s.results) || [];
  }

  function transfersText() {
    const s = state.settlement;
    if (!s || !s.transfers) return "";
    return s.transfers.map((t) => fill(T.pays, {
      payer: state.players[t.from], payee: state.players[t.to], amount: t.amount.toFixed(2),
    })).join(" · ");
  }

  function rolloffPending() {
    return !!(state && state.rolloff && state.rolloff.pending);
  }

  function rolloffText() {
    const r = state.rolloff;
    const name = state.players[r.next];
    const parts = [fill(r.part === 2 ? T.rolloff_part2 : T.rolloff_turn, { name: name })];
    const thisPart = (r.log || []).filter((e) => e.part === r.part);
    if (thisPart.length) parts.push(thisPart.map((e) => state.players[e.player] + " " + e.total).join(", "));
    if (r.contenders.length < state.players.length) {
      parts.push(fill(T.rolloff_tie, { names: r.contenders.map((p) => state.players[p]).join(", ") }));
    }
    return parts.join(" · ");
  }

  // seed 000: before part 2 the table may also change what each combination is worth
  function partTwoValues() {
    const names = Object.keys(state.options || {}).filter((k) => k.startsWith("value."));
    const form = el("form", { id: "part-two-values" });
    const grid = el("div", { class: "part-two-grid" });
    for (const name of names) {
      const input = el("input", { type: "number", min: "0", step: "1", name: name, inputmode: "numeric" });
      input.value = state.options[name];
      grid.append(el("label", {}, [el("span", { text: cellName(name.slice(6)) }), input]));
    }
    form.append(grid, el("button", { class: "button", type: "submit", text: T.save_values }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const changes = {};
      for (const input of form.querySelectorAll("input")) {
        const value = Number(input.value);
        if (input.value !== "" && value !== Number(state.options[input.name])) changes[input.name] = value;
      }
      if (Object.keys(changes).length) move("/options", { options: changes }).catch(() => {});
    });
    // folded: the 7" screen keeps the banner short; a tap opens the points
    return el("details", { class: "part-two-values" }, [
      el("summary", { class: "part-two-title", text: T.part_two_values }), form,
    ]);
  }

  function drawCoach(table) {
    if (!state.coach || state.players.length < 2) return;
    table.classList.add("coached");
    table.prepend(el("caption", { class: "coach", text: T.coach }));
  }

  function drawFlow() {
    const extra = $("extra-round-button");
    if (extra) {
      extra.hidden = !(state.finished && state.ruleset_info && state.ruleset_info.extra_rounds);
    }
    const coach = $("coach-button");
    if (coach) {
      coach.hidden = state.finished || state.players.length < 2 || !(state.ruleset_info && state.ruleset_info.kind !== "duel");
      coach.textContent = state.coach ? T.coach_off : T.coach_on;
    }
  }

  function strikeLabel(cell) {
    const cost = (state.strike_costs || {})[cell];
    if (!cost) return T.strike + ": " + cellName(cell);
    const dice = (state.dice || []).map(dieLabel).join(" ");
    const lost = cost.instead || cost;
    let text = cost.instead
      ? fill(T.strike_instead, { cell: cellName(cell), dice: dice, points: lost.points, other: cellName(lost.cell) })
      : fill(T.strike_cost, { cell: cellName(cell), dice: dice, points: lost.points });
    if (lost.bonus) text += " " + fill(T.strike_bonus, { bonus: lost.bonus });
    return text;
  }

  function subtotalRow(subtotals) {
    const twoPart = state.ruleset === "poker_ru" || state.ruleset === "poker_ua";
    const row = el("tr", { class: "subtotal" }, [
      el("th", { scope: "row", class: "cell-name", text: twoPart ? T.part_one : T.upper_sum }),
    ]);
    subtotals.forEach((sub, p) => {
      const current = p === state.current_player && !state.finished;
      const td = el("td", { class: current ? "current" : "", text: sub.sum });
      if (sub.needed && !sub.complete) {
        const note = fill(twoPart ? T.to_premium : T.to_bonus, { n: sub.needed });
        // a narrow column shows the points still needed alone ("-63"), the words in its title
        td.append(el("small", { class: "to-bonus", title: note }, [
          el("span", { class: "note-long", text: note }),
          el("span", { class: "note-short", text: "−" + sub.needed }),
        ]));
      }
      row.append(td);
    });
    return row;
  }

  function bonusKeys() {
    const keys = new Set();
    for (const b of state.bonuses || []) for (const k of Object.keys(b || {})) keys.add(k);
    return [...keys];
  }

  function isOpenStrikable(cell) {
    // the server lists the cells the rules take a strike (or a commit) on now
    const moves = state.moves || { strike: [], commit: [] };
    return (state.needs_commit ? moves.commit : moves.strike).includes(cell);
  }

  function selectCell(cell) {
    selectedCell = selectedCell === cell ? null : cell;
    drawSheet();
    drawWriteBar();
  }

  function writeAction() {
    if (!state || state.finished || !state.throw) return null;
    if (state.ruleset_info && state.ruleset_info.kind === "duel") {
      return { label: T.stand + (state.hand ? " · " + ((T.hands || {})[state.hand] || state.hand) : ""), path: "/write", body: { cell: "hand" } };
    }
    if (!selectedCell) return { label: T.pick_cell, disabled: true };
    const scores = state.scores || {};
    if (state.needs_commit) {
      return { label: T.commit + ": " + cellName(selectedCell), path: "/commit", body: { cell: selectedCell } };
    }
    if (selectedCell in scores) {
      return { label: T.write + ": " + cellName(selectedCell) + " " + scores[selectedCell], path: "/write", body: { cell: selectedCell } };
    }
    return { label: strikeLabel(selectedCell), path: "/scratch", body: { cell: selectedCell } };
  }

  function drawWriteBar() {
    const bar = $("write-bar");
    const button = $("write-button");
    if (!bar || !button) return;
    const action = writeAction();
    bar.hidden = !action;
    if (!action) return;
    button.textContent = action.label;
    button.disabled = !!action.disabled;
    button.onclick = action.disabled ? null : () => {
      selectedCell = null;
      move(action.path, action.body).catch(() => {});
    };
  }

  function drawStatus(status) {
    if (!status) return;
    lastStatus = status;
    const cam = $("camera-status");
    if (cam) {
      cam.dataset.state = status.camera;
      cam.title = cameraText(status);
      cam.textContent = status.camera === "ok" && status.reader === "ok" ? "" : cameraText(status);
    }
    const message = $("message");
    if (message) {
      let text = status.busy ? T.reading : translate(status.message || "");
      if (status.pending && state && status.pending.game_id === state.id) text = pendingText(status.pending);
      message.textContent = text;
      message.classList.toggle("busy", !!status.busy);
    }
    const stuck = $("button-status");
    if (stuck) {
      stuck.hidden = !status.button_problem;
      stuck.textContent = T.button_stuck || status.button_problem || "";
    }
    const line = $("camera-line");
    if (line) { line.textContent = cameraText(status); line.dataset.state = status.camera; }
    const button = $("throw-button");
    if (button) {
      button.classList.toggle("busy", !!status.busy);
      const noCamera = status.camera === "none" || status.reader !== "ok";
      button.hidden = noCamera;
      button.disabled = !!(state && (state.finished || state.throw >= state.throws_allowed));
    }
    const typed = $("typed");
    if (typed && status.pending && state && status.pending.game_id === state.id && typed.hidden) {
      typed.hidden = false;
      $("typed-dice").value = (status.pending.values || []).join(" ");
    }
    if (typed && atTable && (status.camera === "none" || status.reader !== "ok")) typed.hidden = false;
    drawPhoto();
    if (typed && !typed.hidden) drawTypedPad();
    if (status.message_id && status.message_id !== lastMessageId) {
      const shown = status.pending && status.message === status.pending.message
        ? pendingText(status.pending)
        : translate(status.message);
      if (lastMessageId && status.message && !status.busy) toast(shown, "info");
      lastMessageId = status.message_id;
    }
  }

  function drawBanner() {
    const banner = $("banner");
    if (!banner) return;
    if (state.finished) {
      const names = (state.winners || []).map((w) => state.players[w]).join(", ");
      const actions = el("div", { class: "banner-actions" });
      if (paired) {
        actions.append(el("button", {
          class: "big-button", id: "rematch-button", type: "button", text: T.rematch,
          onclick: () => move("/rematch").catch(() => {}),
        }));
      }
      actions.append(el("a", { class: "button", id: "new-game-link", href: page === "kiosk" ? "/setup?next=/" : "/setup", text: T.new_game }));
      const paying = transfersText();  // issue 26: who pays whom
      const text = fill(T.winners, { names: names }) + (paying ? " · " + paying : "");
      banner.replaceChildren(el("p", { class: "banner-text", text: text }), actions);
      banner.hidden = false;
    } else if (rolloffPending()) {
      const text = el("p", { class: "banner-text", text: rolloffText() });
      const r = state.rolloff;
      const unthrown = !(r.log || []).some((e) => e.part === r.part);
      if (paired && r.part === 2 && unthrown && "multipliers" in (state.options || {})) {
        // seed 000: before part 2 the table may change its agreements (the multipliers here)
        const on = !!state.options.multipliers;
        const toggle = el("button", {
          class: "button", id: "multipliers-button", type: "button",
          text: on ? T.multipliers_on : T.multipliers_off,
          onclick: () => move("/options", { options: { multipliers: !on } }).catch(() => {}),
        });
        banner.replaceChildren(text, el("div", { class: "banner-actions" }, [toggle]), partTwoValues());
      } else {
        banner.replaceChildren(text);
      }
      banner.hidden = false;
    } else {
      banner.hidden = true;
    }
    const undo = $("undo-button");
    if (undo) undo.disabled = state.can_undo === false;
    const hint = $("hint-button");
    if (hint) hint.hidden = !paired || !state.hints || !state.throw || state.finished;
  }

  // -- the die picker (phone) ---------------------------------------------------------

  function openPicker(index) {
    const picker = $("picker");
    const die = state.dice[index];
    if (!picker || !die) return;
    pickerIndex = index;
    $("picker-title").textContent = fill(T.die_n, { n: index + 1 });
    const unsure = (state.unsure || []).includes(index);
    $("picker-note").textContent = unsure ? T.tap_to_confirm : "";
    const values = $("picker-values");
    values.replaceChildren();
    for (let v = 1; v <= 6; v++) {
      const rank = shownRank(die, v);
      values.append(el("button", {
        type: "button",
        class: "die pick" + (v === die.value ? " current" : "") + (rank ? " card" : "")
          + (unsure && v === die.guess ? " guess" : ""),
        "aria-label": (unsure && v === die.value ? T.confirm + " " : "")
          + (unsure && v === die.guess ? fill(T.or_face, { face: rank || v }) : rank || v),
        dataset: { value: v },
        onclick: () => {
          picker.close();
          move("/dice/" + index, { value: v }).catch(() => {});
        },
      }, [dieFace(v, rank)]));
    }
    const hold = $("picker-hold");
    hold.textContent = die.held ? T.release : T.hold;
    hold.hidden = state.throw >= state.throws_allowed;
    hold.onclick = () => {
      picker.close();
      const held = new Set(state.dice.map((d, i) => (d.held ? i : -1)).filter((i) => i >= 0));
      if (held.has(index)) held.delete(index); else held.add(index);
      move("/hold", { held: [...held].sort() }).catch(() => {});
    };
    // a die of the throw just read that is a token or a coin: the throw waits for the
    // die the camera missed instead (the spot is taught to the game's set as no die)
    const noDie = $("picker-no-die");
    noDie.hidden = !die.box || die.held || state.version !== state.last_throw_seq;
    noDie.onclick = () => {
      picker.close();
      move("/dice/" + index + "/no-die", {}).catch(() => {});
    };
    if (!picker.open) picker.showModal();
  }

  // A die the camera missed, tapped on the waiting reading's photo: which face is up?
  function openMissedPicker(point) {
    const picker = $("picker");
    if (!picker) return;
    pickerIndex = null;
    $("picker-title").textContent = T.missed_die;
    $("picker-note").textContent = T.missed_note;
    const values = $("picker-values");
    values.replaceChildren();
    const cards = state.dice_kind === "cards";
    for (let v = 1; v <= 6; v++) {
      const rank = cards ? rankLabels(state)[v - 1] : null;
      values.append(el("button", {
        type: "button",
        class: "die pick" + (rank ? " card" : ""),
        "aria-label": rank || String(v),
        dataset: { value: v },
        onclick: () => {
          picker.close();
          move("/missed", { x: point[0], y: point[1], value: v }).catch(() => {});
        },
      }, [dieFace(v, rank)]));
    }
    $("picker-hold").hidden = true;
    $("picker-no-die").hidden = true;
    if (!picker.open) picker.showModal();
  }

  // -- actions ----------------------------------------------------------------------------

  function throwComplete() {
    if (!state) return;
    const button = $("throw-button");
    if (button) button.classList.add("busy");
    move(rolloffPending() ? "/rolloff" : "/throw").catch(() => {}).finally(() => { if (button) button.classList.remove("busy"); });
  }

  function bindTable() {
    const throwButton = $("throw-button");
    if (throwButton) throwButton.addEventListener("click", throwComplete);
    if (page === "kiosk") {
      document.addEventListener("keydown", (e) => {
        const typing = e.target instanceof HTMLElement && e.target.closest("input, textarea, dialog");
        if (!typing && (e.code === "Space" || e.key === " ")) {
          e.preventDefault();
          if (!e.repeat) throwComplete();
        }
      });
    }
    const undo = $("undo-button");
    if (undo) undo.addEventListener("click", () => move("/undo").catch(() => {}));
    const extra = $("extra-round-button");
    if (extra) extra.addEventListener("click", () => move("/extra_round").catch(() => {}));
    const coach = $("coach-button");
    if (coach) coach.addEventListener("click", () => move("/coach", { on: !state.coach }).catch(() => {}));
    const typeButton = $("type-button");
    const typed = $("typed");
    if (typeButton && typed) {
      typeButton.addEventListener("click", () => {
        if (typed.hidden) openTyped(); else typed.hidden = true;
        if (!typed.hidden && page === "play") $("typed-dice").focus();
      });
      typed.addEventListener("submit", (e) => {
        e.preventDefault();
        const text = $("typed-dice").value.trim().toUpperCase();
        let dice = text.split(/[\s,]+/).filter(Boolean);
        if (dice.length === 1 && /^[1-6]+$/.test(dice[0])) dice = dice[0].split("");
        move(rolloffPending() ? "/rolloff" : "/throw", { dice: dice }).then(() => {
          $("typed-dice").value = "";
          const status = lastStatus || {};
          if (status.camera === "ok" && status.reader === "ok") typed.hidden = true;  // done with it
        }).catch(() => {});
      });
    }
    const photoImage = $("photo-image");
    if (photoImage) photoImage.addEventListener("click", (e) => tappedBesideTheDice(photoPoint(e, photoImage)));
    const hint = $("hint-button");
    if (hint) {
      hint.addEventListener("click", async () => {
        const response = await fetch(gamePath("/hint"));
        const data = await response.json().catch(() => ({}));
        if (!response.ok) { toast(data.message, "error"); return; }
        const best = (data.choices || [])[0];
        if (!best) return;
        for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
        if (best.kind === "keep") {
          const dice = document.querySelectorAll("#dice .die");
          for (const i of best.keep_indexes || []) if (dice[i]) dice[i].classList.add("hinted");
          toast(T.hint + ": " + (best.keep.length ? T.hold + " " + best.keep.map(faceLabel).join(" ") : T.rethrow_all), "info");
        } else {
          const cell = document.querySelector(`#sheet tr[data-cell="${best.cell}"] td.current`);
          if (cell) cell.classList.add("hinted");
          toast(T.hint + ": " + T.write + " " + cellName(best.cell), "info");
        }
      });
    }
    if (!state) {
      const empty = $("empty");
      if (empty) empty.hidden = false;
      const board = $("board");
      if (board) board.classList.add("no-game");
    } else {
      render(state);
    }
  }

  // -- live updates --------------------------------------------------------------------

  function listen() {
    if (!window.EventSource) return;
    const source = new EventSource("/api/events");
    source.addEventListener("state", (e) => {
      const next = JSON.parse(e.data);
      const current = next.table && next.table.current_game;
      if ((next.bluff || next.board) && next.id === current) { window.location.reload(); return; } // issue 27
      if (!state || next.id === state.id || next.id === current) render(next);
    });
    source.addEventListener("table", (e) => {
      const data = JSON.parse(e.data);
      drawStatus(data.table);
    });
    source.addEventListener("open", () => setOffline(false));
    source.addEventListener("error", () => setOffline(true));
  }

  // A stopped server is plain: a full-width line, the camera dot grey, the PIN hidden.
  function setOffline(offline) {
    document.body.classList.toggle("offline", offline);
    let line = $("offline-banner");
    if (!line && offline) {
      line = el("div", { id: "offline-banner", class: "offline-banner", role: "alert", text: T.offline });
      document.body.prepend(line);
    }
    if (line) line.hidden = !offline;
  }

  // -- setup -----------------------------------------------------------------------------

  // Where a started game is played: the kiosk's own screen when it came from there.
  function nextPage() {
    return new URLSearchParams(window.location.search).get("next") === "/" ? "/" : "/play";
  }

  function bindSetup() {
    const form = $("setup-form");
    if (!form) return;
    const showOptions = () => {
      const ruleset = form.querySelector("input[name=ruleset]:checked").value;
      for (const box of form.querySelectorAll(".options")) box.hidden = box.dataset.ruleset !== ruleset;
    };
    form.addEventListener("change", showOptions);
    showOptions();
    bindRankToggle($("setup-ranks"), form.elements.dice_set);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const ruleset = form.querySelector("input[name=ruleset]:checked").value;
      const players = [...form.querySelectorAll("input[name=player]")].map((i) => i.value.trim()).filter(Boolean);
      const options = {};
      for (const input of form.querySelectorAll(`.options[data-ruleset="${ruleset}"] [data-option]`)) {
        if (input.value.trim() !== "") options[input.dataset.option] = input.value.trim();
      }
      const timer = form.elements.timer.value;
      const body = { ruleset, players, options, dice: form.elements.dice.value, timer: timer ? Number(timer) : null };
      if (form.elements.dice_set && form.elements.dice_set.value) body.dice_set = form.elements.dice_set.value;
      for (const name of ["rolloff", "hints"]) {  // issue 26: "" leaves the rules' default
        const value = form.elements[name] ? form.elements[name].value : "";
        if (value) body[name] = value === "on";
      }
      const error = $("setup-error");
      try {
        await api("/api/games", body);
        window.location.href = nextPage();
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
      }
    });
    for (const button of document.querySelectorAll("[data-resume]")) {
      button.addEventListener("click", async () => {
        await api("/api/games/" + button.dataset.resume + "/select", {});
        window.location.href = nextPage();
      });
    }
  }

  // The letters a set's poker dice print (/setup, /camera's teach step): the toggle shows the
  // chosen set's, and a tap records the other for the set at once (a property of the dice,
  // not of one game). Without a set (untaught) there is nothing to record: it is disabled.
  function bindRankToggle(toggle, select) {
    if (!toggle || !select) return;
    const radios = [...toggle.querySelectorAll("input[type=radio]")];
    const show = () => {
      const option = select.selectedOptions[0];
      const ranks = (option && option.dataset.ranks) || "latin";
      toggle.disabled = !select.value;
      for (const radio of radios) radio.checked = radio.value === ranks;
    };
    select.addEventListener("change", show);
    for (const radio of radios) {
      radio.addEventListener("change", async (e) => {
        e.stopPropagation();
        if (!radio.checked || !select.value) return;
        try {
          const saved = await api("/api/dice-sets/" + select.value + "/ranks", { ranks: radio.value });
          select.selectedOptions[0].dataset.ranks = saved.ranks;
          toast(fill(T.ranks_saved, { labels: saved.rank_labels.join(" ") }), "info");
        } catch (err) { show(); }
      });
    }
    show();
  }
  window.scorerPage.bindRankToggle = bindRankToggle;

  // -- camera ------------------------------------------------------------------------------

  function bindCamera() {
    const image = $("preview-image");
    const canvas = $("preview-canvas");
    if (!image || !canvas) return;
    let region = readJson("region");
    let boxes = [];
    let size = null;
    let drag = null;
    const live = $("preview").dataset.live === "true";

    function draw() {
      canvas.width = image.clientWidth;
      canvas.height = image.clientHeight;
      const g = canvas.getContext("2d");
      g.clearRect(0, 0, canvas.width, canvas.height);
      const r = drag || region;
      if (r) {
        g.strokeStyle = "#4ade80";
        g.lineWidth = 3;
        g.setLineDash([10, 6]);
        g.strokeRect(r[0] * canvas.width, r[1] * canvas.height, r[2] * canvas.width, r[3] * canvas.height);
        g.setLineDash([]);
      }
      if (size) {
        const sx = canvas.width / size[0];
        const sy = canvas.height / size[1];
        g.font = "bold 20px sans-serif";
        for (const d of boxes) {
          if (!d.box || !d.box[2] || !d.box[3]) continue;
          g.strokeStyle = d.unsure ? "#fb923c" : "#38bdf8";
          g.lineWidth = 3;
          g.strokeRect(d.box[0] * sx, d.box[1] * sy, d.box[2] * sx, d.box[3] * sy);
          g.fillStyle = g.strokeStyle;
          g.fillText((d.rank || d.value) + " " + Math.round(d.confidence * 100) + "%", d.box[0] * sx, d.box[1] * sy - 6);
        }
      }
    }

    image.addEventListener("load", draw);
    window.addEventListener("resize", draw);
    const point = (e) => {
      const rect = canvas.getBoundingClientRect();
      return [Math.min(1, Math.max(0, (e.clientX - rect.left) / rect.width)), Math.min(1, Math.max(0, (e.clientY - rect.top) / rect.height))];
    };
    canvas.addEventListener("pointerdown", (e) => { const p = point(e); drag = [p[0], p[1], 0, 0]; drag.start = p; canvas.setPointerCapture(e.pointerId); });
    canvas.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const p = point(e);
      const s = drag.start;
      const next = [Math.min(s[0], p[0]), Math.min(s[1], p[1]), Math.abs(p[0] - s[0]), Math.abs(p[1] - s[1])];
      next.start = s;
      drag = next;
      draw();
    });
    canvas.addEventListener("pointerup", async () => {
      if (!drag) return;
      const chosen = [drag[0], drag[1], drag[2], drag[3]].map((v) => Math.round(v * 1000) / 1000);
      drag = null;
      if (chosen[2] < 0.05 || chosen[3] < 0.05) { draw(); return; }
      try { region = (await api("/api/camera/region", { region: chosen })).region; } catch (e) { /* toast shown */ }
      draw();
    });
    $("clear-region").addEventListener("click", async () => {
      region = (await api("/api/camera/region", { region: null })).region;
      draw();
    });
    $("test-read").addEventListener("click", async () => {
      try {
        const reading = await api("/api/camera/read", {});
        const unsure = new Set(reading.unsure || []);
        boxes = (reading.dice || []).map((d, i) => Object.assign({ unsure: unsure.has(i) }, d));
        size = reading.size;
        image.src = "/camera/preview.jpg?t=" + Date.now();
        const px = reading.die_px == null ? "" : "  · " + fill(T.die_px, { px: Math.round(reading.die_px) });
        $("reading").textContent = boxes.length
          ? boxes.map((d) => (d.rank || d.value) + " (" + Math.round(d.confidence * 100) + "%)").join("  ") + "  · " + reading.ms + " ms" + px
          : reading.message || "-";
        const small = $("dice-small");
        small.hidden = !reading.small;
        small.textContent = reading.small ? fill(T.dice_small, { px: Math.round(reading.die_px) }) : "";
      } catch (e) { /* toast shown */ }
    });
    if (live) setInterval(() => { image.src = "/camera/preview.jpg?t=" + Date.now(); }, 1000);
  }

  // -- pairing: the kiosk's corner shows the PIN and its QR code (they rotate) -------------

  function showPairing() {
    const panels = document.querySelectorAll(".pair-panel");
    if (!panels.length) return;
    const refresh = async () => {
      try {
        const response = await fetch("/pair/code.json", { cache: "no-store" });
        if (!response.ok) { for (const panel of panels) panel.hidden = true; return; }
        const code = await response.json();
        const picture = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(code.svg);
        for (const panel of panels) {
          panel.querySelector(".pair-pin-value").textContent = code.pin;
          const qr = panel.querySelector(".pair-qr");
          if (qr.src !== picture) qr.src = picture;
          qr.title = code.url;
          panel.hidden = false;
        }
      } catch (e) { /* offline: the next refresh tries again */ }
    };
    refresh();
    setInterval(refresh, 10000);
  }

  // -- history: every throw's photo with its dice boxed ----------------------------------------

  function bindHistory() {
    for (const link of document.querySelectorAll(".throw-photo[data-marks]")) {
      const img = link.querySelector("img");
      let marks = [];
      try { marks = JSON.parse(link.dataset.marks); } catch (e) { marks = []; }
      if (img) markPhoto(img, marks.map((m, i) => Object.assign({ index: i }, m)), null);
    }
  }

  if (page === "history") {
    bindHistory();
  } else if (page === "kiosk" || page === "play") {
    showPairing();
    bindTable();
    listen();
  } else if (page === "setup") {
    bindSetup();
  } else if (page === "camera") {
    drawStatus(readJson("table-status"));
    bindCamera();
    listen();
  }
})();
