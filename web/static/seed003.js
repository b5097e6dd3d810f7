// The table of seed 003's bluff and 9x9 board (issue 27): draws the state, sends moves to
// the JSON API, re-draws from every Server-Sent Event. Loaded only on their pages.
"use strict";

(function () {
  // app.js's helpers (loaded first): one way to read, fill, translate and draw on every page
  const { el, $, readJson, fill, translate, showTimer, RANKS, rankLabels } = window.scorerPage;
  const T = readJson("strings") || {};
  const W = T.seed003 || {};
  const view = document.getElementById("s3").dataset.view;
  // an unpaired phone watches: the game is drawn, nothing on it can be tapped
  const paired = document.getElementById("s3").dataset.paired !== "false";
  let state = readJson("state");
  let picked = null; // the hand chosen on the bluff picker, before its ranks
  let lastMessageId = 0;
  let cameraOk = true;

  // The table's lines come in English; the page's templates translate them (web/refusals.py).
  function toast(message) { window.scorerPage.toast(translate(message), "info"); }

  async function move(suffix, body) {
    const payload = Object.assign({ version: state.version }, body || {});
    const response = await fetch("/api/games/" + state.id + suffix, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload),
    }).catch(() => null);
    if (!response) { toast(T.offline); return false; }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      if (data.state) render(data.state);
      toast(data.error === "StaleState" ? T.stale : data.message || response.statusText);
      return false;
    }
    render(data);
    return true;
  }

  // -- words ---------------------------------------------------------------------------

  const GROUPS = {
    five_of_a_kind: [5], four_of_a_kind: [4, 1], full_house: [3, 2], three_of_a_kind: [3, 1, 1],
    two_pairs: [2, 2, 1], pair: [2, 1, 1, 1], high_card: [1, 1, 1, 1, 1],
  };
  function cards() { return state.dice_kind !== "pips"; }
  // a card die as the game's set prints it (9 10 J Q K A, or 9 10 В Д К Т)
  function face(v) { return cards() ? rankLabels(state)[v - 1] : String(v); }
  // a board square's symbol ("KKK··", "10-A") from the server's Latin ranks in the set's letters
  function symbolText(symbol) {
    if (!cards()) return symbol;
    const labels = rankLabels(state);
    return symbol.replace(/[JQKA]/g, (rank) => labels[RANKS.indexOf(rank)]);
  }
  function handName(hand) { return (T.hands || {})[hand] || hand.replace(/_/g, " "); }
  function ranksText(hand, ranks) {
    if (hand === "straight") return ranks[0] === 6 ? face(2) + "-" + face(6) : face(1) + "-" + face(5);
    return ranks.map((r, i) => Array((GROUPS[hand] || [])[i] || 1).fill(face(r)).join(" ")).join(" · ");
  }
  function claimText(claim) { return handName(claim.hand) + " " + ranksText(claim.hand, claim.ranks); }
  function name(i) { return state.players[i]; }

  // -- shared drawing --------------------------------------------------------------------

  const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
  function dieFace(value) {
    if (cards()) return el("span", { class: "rank", text: face(value) });
    const pips = el("span", { class: "pips", "aria-hidden": "true" });
    for (let spot = 1; spot <= 9; spot++) pips.append(el("i", { class: PIPS[value].includes(spot) ? "pip" : "" }));
    return pips;
  }

  function drawDice(canHold) {
    const box = $("s3-dice");
    box.replaceChildren();
    const unsure = new Set(state.unsure || []);
    (state.dice || []).forEach((die, i) => {
      const classes = ["die"];
      if (die.held) classes.push("held");
      if (unsure.has(i)) classes.push("unsure");
      if (die.corrected) classes.push("corrected");
      if (cards()) classes.push("card");
      const node = el("button", {
        type: "button", class: classes.join(" "), dataset: { index: i, value: die.value },
        "aria-label": fill(W.die_n, { n: i + 1 }) + ", " + face(die.value) + (unsure.has(i) ? ", " + T.tap_to_confirm : ""),
        disabled: !paired,
        onclick: () => openDie(i, canHold),
      }, [dieFace(die.value)]);
      if (unsure.has(i)) node.append(el("span", { class: "die-note", text: T.tap_to_confirm }));
      else if (die.held) node.append(el("span", { class: "die-note", text: T.held }));
      box.append(node);
    });
  }

  function openDie(index, canHold) {
    const dialog = $("s3-die-picker");
    const die = state.dice[index];
    $("s3-die-title").textContent = fill(W.die_n, { n: index + 1 });
    const values = $("s3-die-values");
    values.replaceChildren();
    for (let v = 1; v <= 6; v++) {
      values.append(el("button", {
        type: "button", class: "die pick" + (v === die.value ? " current" : "") + (cards() ? " card" : ""),
        "aria-label": face(v), dataset: { value: v },
        onclick: () => { dialog.close(); move("/dice/" + index, { value: v }); },
      }, [dieFace(v)]));
    }
    const hold = $("s3-die-hold");
    hold.hidden = !canHold || state.throw >= state.throws_allowed;
    hold.textContent = die.held ? W.release : W.hold;
    hold.onclick = () => {
      dialog.close();
      const held = new Set(state.dice.map((d, i) => (d.held ? i : -1)).filter((i) => i >= 0));
      if (held.has(index)) held.delete(index); else held.add(index);
      move("/hold", { held: [...held].sort() });
    };
    if (!dialog.open) dialog.showModal();
  }

  function drawPlayers(detail) {
    const box = $("s3-players");
    box.replaceChildren();
    state.players.forEach((player, i) => {
      const classes = ["s3-player"];
      if (i === state.current_player && !state.finished) classes.push("current");
      if ((state.winners || []).includes(i)) classes.push("winner");
      const extra = detail(i);
      if (extra.out) classes.push("out");
      box.append(el("div", { class: classes.join(" "), dataset: { player: i } }, [
        el("span", { class: "s3-swatch owner-" + (extra.owner === undefined ? i : extra.owner) }),
        el("span", { class: "s3-name", text: player }),
        el("span", { class: "s3-detail", text: extra.text }),
      ]));
    });
  }

  function drawStatus(status) {
    if (!status) return;
    const cam = $("s3-camera");
    cam.dataset.state = status.camera;
    cam.textContent = status.camera === "ok" && status.reader === "ok" ? "" : (status.camera === "none" ? T.camera_none : translate(status.camera_message));
    let text = status.busy ? T.reading : translate(status.message || "");
    if (status.pending && status.pending.game_id === state.id) {
      const p = status.pending;
      const seen = (p.seen && p.seen.length ? p.seen : p.values || []).length;
      text = fill(p.left_out && p.left_out.length ? T.pending_over : T.pending, { seen: seen, expected: p.expected });
    }
    $("s3-message").textContent = text;
    cameraOk = !(status.camera === "none" || status.reader !== "ok");
    drawControls();
    const typed = $("s3-typed");
    if (typed && status.pending && status.pending.game_id === state.id && typed.hidden) {
      typed.hidden = false;
      $("s3-typed-dice").value = (status.pending.values || []).join(" ");
    }
    if (status.message_id && status.message_id !== lastMessageId) {
      if (lastMessageId && status.message && !status.busy) toast(status.message);
      lastMessageId = status.message_id;
    }
  }

  function render(next) {
    if (!next || !next.ruleset) return;
    // a reply that arrives after a newer event (a tap's, on a busy table) is older: skip it
    if (next.id === state.id && next.version < state.version) return;
    if (next.ruleset !== state.ruleset || (!next.bluff && !next.board)) { window.location.reload(); return; }
    state = next;
    $("s3-turn").textContent = state.finished ? "" : fill(T.its_turn, { name: name(state.current_player) });
    const timer = state.timer;
    deadlineAt = timer && timer.remaining !== undefined && timer.remaining !== null
      ? Date.now() + timer.remaining * 1000 : null;
    tickTimer();
    if (state.bluff) renderBluff(); else renderBoard();
    drawStatus(state.table);
    if (paired) $("s3-undo").disabled = state.can_undo === false;
    const banner = $("s3-banner");
    banner.hidden = !state.finished;
    if (state.finished) banner.textContent = fill(T.winners, { names: (state.winners || []).map(name).join(", ") });
  }

  // the turn timer, when the table set one: the board's timer places a chip on expiry
  let deadlineAt = null;
  function tickTimer() { showTimer($("s3-timer"), state.finished ? null : deadlineAt); }
  setInterval(tickTimer, 250);

  // -- bluff -------------------------------------------------------------------------------

  function renderBluff() {
    const b = state.bluff;
    const most = Math.max(...b.lives, Number((state.options || {}).lives) || 0);
    $("s3-round").textContent = fill(T.round_n, { n: state.round });
    drawPlayers((i) => ({
      out: b.lives[i] <= 0,
      text: b.lives[i] > 0 ? "♥".repeat(b.lives[i]) + "♡".repeat(Math.max(0, most - b.lives[i])) : W.out,
    }));
    const ladder = $("s3-ladder");
    ladder.replaceChildren(...b.claims.map((c) => el("li", {}, [el("b", { text: name(c.player) + ": " }), claimText(c)])));
    const last = b.claims.length ? b.claims[b.claims.length - 1] : null;
    const prompt = $("s3-prompt");
    const reveal = $("s3-reveal");
    const call = $("s3-call");
    const picker = $("s3-picker");
    const revealing = b.phase === "reveal" && !state.finished;
    $("s3").dataset.phase = revealing ? "reveal" : "claim";
    reveal.hidden = !revealing;
    call.hidden = !b.can_call || !paired;
    if (b.can_call) {
      call.textContent = fill(W.call, { name: name(b.claimer) });
      call.onclick = () => move("/call", { player: state.current_player });
    }
    if (state.finished) {
      prompt.textContent = "";
      picker.replaceChildren();
    } else if (revealing) {
      prompt.textContent = fill(W.called, { caller: name(b.caller), claimer: name(b.claimer) }) + " " + W.reveal_hint;
      picker.replaceChildren();
      drawReveal(b);
    } else {
      const who = name(state.current_player);
      if (!last) prompt.textContent = fill(W.first_claim, { name: who });
      else if (!b.next_claims.length) prompt.textContent = fill(W.top_claim, { name: who });
      else prompt.textContent = fill(W.claim_or_call, { name: who, claim: claimText(last) });
      drawPicker(b.next_claims);
    }
    drawLastRound(b.last_round);
  }

  function drawPicker(offers) {
    const picker = $("s3-picker");
    picker.replaceChildren();
    if (!offers.length || !paired) return;
    const hands = [...new Set(offers.map((c) => c.hand))];
    if (picked && !hands.includes(picked)) picked = null;
    if (!picked) {
      picker.append(el("p", { class: "s3-step", text: W.pick_hand }));
      const row = el("div", { class: "s3-choices s3-hands" });
      for (const hand of hands) {
        row.append(el("button", { type: "button", class: "button", dataset: { hand: hand }, text: handName(hand),
          onclick: () => { picked = hand; drawPicker(offers); } }));
      }
      picker.append(row);
      return;
    }
    picker.append(el("p", { class: "s3-step" }, [
      el("button", { type: "button", class: "button", text: "‹ " + W.back, onclick: () => { picked = null; drawPicker(offers); } }),
      " " + handName(picked) + ": " + W.pick_ranks,
    ]));
    const row = el("div", { class: "s3-choices s3-ranks" });
    for (const claim of offers.filter((c) => c.hand === picked)) {
      row.append(el("button", {
        type: "button", class: "button", dataset: { ranks: claim.ranks.join(",") }, text: ranksText(claim.hand, claim.ranks),
        onclick: () => { picked = null; move("/claim", { hand: claim.hand, ranks: claim.ranks, player: state.current_player }); },
      }));
    }
    picker.append(row);
  }

  function drawPhoto(box, photo, boxes, dice) {
    const img = box.querySelector("img");
    const layer = box.querySelector(".s3-boxes");
    box.hidden = !photo;
    if (!photo) return;
    const src = "/photos/" + photo;
    const place = () => {
      layer.replaceChildren();
      const w = img.naturalWidth || 1;
      const h = img.naturalHeight || 1;
      (boxes || []).forEach((b, i) => {
        if (!b) return;
        const die = dice[i];
        const unsure = (state.unsure || []).includes(i) && state.bluff.phase === "reveal";
        layer.append(el("button", {
          type: "button", class: "s3-box" + (unsure ? " unsure" : ""), dataset: { index: i },
          style: `left:${(100 * b[0]) / w}%;top:${(100 * b[1]) / h}%;width:${(100 * b[2]) / w}%;height:${(100 * b[3]) / h}%`,
          disabled: !paired || state.bluff.phase !== "reveal",
          onclick: state.bluff.phase === "reveal" ? () => openDie(i, false) : null,
        }, [el("span", { text: die === undefined ? "" : face(die) })]));
      });
    };
    img.onload = place;
    if (img.getAttribute("src") !== src) img.src = src; else if (img.complete) place();
  }

  function drawReveal(b) {
    drawDice(false);
    const verdict = $("s3-verdict");
    const judge = $("s3-judge");
    const r = b.reveal || {};
    drawPhoto($("s3-photo"), r.photo || b.photo, r.boxes, (state.dice || []).map((d) => d.value));
    if (r.hand) {
      verdict.textContent = fill(W.revealed, { hand: handName(r.hand), claim: claimText(r.claim) }) + " "
        + fill(r.holds ? W.holds : W.bluff, { name: name(r.loser) });
      verdict.dataset.holds = r.holds;
      judge.hidden = !paired;
      judge.textContent = W.accept;
      judge.onclick = () => move("/judge", {});
    } else {
      verdict.textContent = "";
      judge.hidden = true;
    }
  }

  function drawLastRound(round) {
    const box = $("s3-last");
    box.hidden = !round;
    if (!round) return;
    const shown = round.dice.map(face).join(" ");
    const photo = el("div", { class: "s3-photo s3-photo-small" }, [el("img", { alt: shown }), el("div", { class: "s3-boxes" })]);
    box.replaceChildren(
      el("h2", { text: W.last_round }),
      el("p", {}, [el("b", { text: name(round.claimer) + ": " }), claimText(round.claim)]),
      el("p", { class: "s3-shown", text: shown + " · " + handName(round.hand) }),
      el("p", { class: "s3-verdict", dataset: { holds: round.holds } },
        fill(round.holds ? W.holds : W.bluff, { name: name(round.loser) }) + (round.out ? " " + fill(W.is_out, { name: name(round.loser) }) : "")),
      photo,
    );
    drawPhoto(photo, round.photo, round.boxes, round.dice);
  }

  // -- board ---------------------------------------------------------------------------------

  function squareName(square) {
    if (!square) return W.centre;
    const [kind, part] = square.hand.split(":");
    if (kind === "lucky") return fill(W.lucky, { n: part });
    if (kind === "straight") return part === "low" ? W.straight_low : W.straight_high;
    if (kind === "high_card") return handName(kind);
    return handName(kind) + " " + face(Number(part));
  }

  function renderBoard() {
    const g = state.board;
    $("s3-round").textContent = state.throw ? fill(T.throw_n, { n: state.throw, of: state.throws_allowed }) : "";
    drawPlayers((i) => {
      const owner = g.teams ? i % 2 : i;
      return { owner: owner, text: W.series + " " + g.series[owner].length };
    });
    const places = new Set(g.places);
    const removable = new Set(g.removable);
    const guarded = new Set(g.protected);
    const grid = $("s3-grid");
    grid.replaceChildren();
    grid.style.setProperty("--size", g.size);
    g.squares.forEach((square, i) => {
      const chip = g.chips[i];
      const classes = ["s3-square"];
      if (i === g.centre) classes.push("centre");
      if (chip !== null) classes.push("chip", "owner-" + chip);
      if (places.has(i)) classes.push("lit");
      if (removable.has(i)) classes.push("lit", "removable");
      if (guarded.has(i)) classes.push("series");
      if (i === g.last) classes.push("last");
      const action = !paired ? null : places.has(i) ? "/place" : removable.has(i) ? "/remove" : null;
      grid.append(el("button", {
        type: "button", class: classes.join(" "), dataset: { square: i, hand: square ? square.hand : "centre" },
        "aria-label": squareName(square) + (chip !== null ? " · " + g.owner_names[chip] : ""),
        title: squareName(square), disabled: !action,
        onclick: action ? () => move(action, { square: i, player: state.current_player }) : null,
      }, [el("span", { text: square ? symbolText(square.symbol) : "★" })]));
    });
    const prompt = $("s3-prompt");
    if (state.finished) prompt.textContent = "";
    else if (!state.dice.length) prompt.textContent = T.throw_none;
    else if (g.removable.length) prompt.textContent = W.remove;
    else if (g.places.length) prompt.textContent = W.place;
    else prompt.textContent = W.no_square;
    drawDice(true);
    const made = g.made ? g.squares.find((s) => s && s.hand === g.made) : null;
    $("s3-made").textContent = made ? fill(W.made, { hand: squareName(made) }) : "";
    const pass = $("s3-pass");
    pass.hidden = !g.can_pass || !paired;
    pass.textContent = W.pass;
    pass.onclick = () => move("/pass", { player: state.current_player });
  }

  function drawControls() {
    if (!paired) return;
    const b = state.bluff;
    const canThrow = b
      ? b.phase === "reveal" && !state.finished
      : !state.finished && state.throw < state.throws_allowed;
    $("s3-throw").hidden = !canThrow || !cameraOk;
    $("s3-type").hidden = !canThrow;
    if (!canThrow) $("s3-typed").hidden = true;
    else if (!cameraOk) $("s3-typed").hidden = false;
  }

  // -- controls and live updates -------------------------------------------------------------

  function throwComplete() { move("/throw", {}); }
  if (paired) bindControls();

  function bindControls() {
    $("s3-throw").addEventListener("click", throwComplete);
    if (view === "kiosk") {
      document.addEventListener("keydown", (e) => {
        if ((e.code === "Space" || e.key === " ") && e.target.tagName !== "INPUT") {
          e.preventDefault();
          if (!e.repeat) throwComplete();
        }
      });
    }
    $("s3-undo").addEventListener("click", () => move("/undo", {}));
    $("s3-type").addEventListener("click", () => {
      const typed = $("s3-typed");
      typed.hidden = !typed.hidden;
      if (!typed.hidden) $("s3-typed-dice").focus();
    });
    $("s3-typed").addEventListener("submit", (e) => {
      e.preventDefault();
      let dice = $("s3-typed-dice").value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
      if (dice.length === 1 && /^[1-6]+$/.test(dice[0])) dice = dice[0].split("");
      move("/throw", { dice: dice }).then((done) => { if (done) $("s3-typed-dice").value = ""; });
    });
  }

  if (window.EventSource) {
    const source = new EventSource("/api/events");
    source.addEventListener("state", (e) => {
      const next = JSON.parse(e.data);
      const current = next.table && next.table.current_game;
      if (next.id === state.id) render(next);
      else if (next.id === current) window.location.reload();
    });
    source.addEventListener("table", (e) => drawStatus(JSON.parse(e.data).table));
    source.addEventListener("open", () => document.body.classList.remove("offline"));
    source.addEventListener("error", () => document.body.classList.add("offline"));
  }
  render(state);
})();
