// /camera's "Teach my dice" (issue 24): throw, fix what was read, tap missed dice,
// confirm; the summary says what the set has seen and how it reads its photos now.
"use strict";

(function () {
  const section = document.getElementById("teach");
  if (!section) return;
  const { $, readJson, fill, toast, rankLabels, bindRankToggle } = window.scorerPage; // app.js's, loaded first
  const T = readJson("teach-strings") || {};
  const image = $("teach-image");
  const canvas = $("teach-canvas");
  let lesson = null; // {lesson, photo, size, dice, kind}
  let dice = []; // [{box | x, y, value, read}]

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      toast(data.message || response.statusText, "error");
      throw new Error(data.message || response.statusText);
    }
    return data;
  }

  const setId = () => $("teach-set").value;
  // a card die as the chosen set prints it (the toggle below the sets: Latin or Cyrillic)
  const ranks = () => rankLabels({ rank_labels: letters() });
  const name = (value) => (lesson && lesson.kind === "card" ? ranks()[value - 1] : String(value));

  function letters() {
    const checked = document.querySelector("#teach-ranks input:checked");
    return checked ? checked.dataset.labels.split(" ") : null;
  }

  let shown = null; // the summary on the page, redrawn when the set's letters change
  function summarise(summary) {
    shown = summary;
    const problem = $("teach-problem");
    problem.hidden = !(summary && summary.problem);
    if (summary && summary.problem) problem.textContent = fill(T.problem, { problem: summary.problem });
    const out = $("teach-summary");
    if (!summary || !summary.crops) { out.textContent = T.untaught; return; }
    const faces = Object.entries(summary.faces)
      .map(([key, n]) => { const [kind, v] = key.split(":"); return (kind === "card" ? ranks()[v - 1] : v) + " ×" + n; })
      .join(", ");
    const reads = (summary.reads || [])
      .map((r) => r.dice.map((d) => (d.rank ? ranks()[d.value - 1] : d.value)).join(" "))
      .join(" · ");
    const size = summary.size
      ? fill(summary.size.used ? T.size_used : T.size_unused, { side: Math.round(summary.size.side) })
      : "";
    const junk = summary.not_dice ? fill(T.not_dice, { count: summary.not_dice }) : "";
    const sure = summary.sureness && summary.sureness.temperature > 1
      ? fill(T.sureness, { wrong: summary.sureness.wrong, sure: summary.sureness.sure })
      : "";
    out.textContent = [fill(T.faces, { faces }), junk, reads ? fill(T.reads, { reads }) : "", size, sure]
      .filter(Boolean).join("\n");
  }

  function draw() {
    canvas.width = image.clientWidth;
    canvas.height = image.clientHeight;
    const g = canvas.getContext("2d");
    g.clearRect(0, 0, canvas.width, canvas.height);
    if (!lesson) return;
    const sx = canvas.width / lesson.size[0];
    const sy = canvas.height / lesson.size[1];
    g.font = "bold 18px sans-serif";
    dice.forEach((d, i) => {
      g.strokeStyle = d.box ? (d.value !== d.read ? "#fb923c" : "#38bdf8") : "#4ade80";
      g.fillStyle = g.strokeStyle;
      g.lineWidth = 3;
      if (d.box) g.strokeRect(d.box[0] * sx, d.box[1] * sy, d.box[2] * sx, d.box[3] * sy);
      else { g.beginPath(); g.arc(d.x * sx, d.y * sy, 12, 0, 2 * Math.PI); g.stroke(); }
      const x = d.box ? d.box[0] * sx : d.x * sx + 14;
      const y = d.box ? d.box[1] * sy - 6 : d.y * sy;
      g.fillText(i + 1 + ": " + (d.value ? name(d.value) : "?"), x, y);
    });
  }

  function list() {
    const ol = $("teach-dice");
    ol.textContent = "";
    dice.forEach((d, i) => {
      const select = document.createElement("select");
      select.setAttribute("aria-label", "die " + (i + 1));
      select.dataset.die = String(i);
      const options = [[0, d.box ? T.no_die : T.choose]].concat([1, 2, 3, 4, 5, 6].map((v) => [v, name(v)]));
      for (const [value, text] of options) {
        const option = document.createElement("option");
        option.value = String(value);
        option.textContent = text;
        if (value === (d.value || 0)) option.selected = true;
        select.append(option);
      }
      select.addEventListener("change", () => { d.value = Number(select.value) || null; draw(); });
      const li = document.createElement("li");
      li.append(select, " ", d.box ? fill(T.read_as, { value: name(d.read) }) : T.missed);
      ol.append(li);
    });
  }

  canvas.addEventListener("click", (e) => {
    if (!lesson) return;
    const rect = canvas.getBoundingClientRect();
    const x = ((e.clientX - rect.left) / rect.width) * lesson.size[0];
    const y = ((e.clientY - rect.top) / rect.height) * lesson.size[1];
    dice.push({ x: Math.round(x), y: Math.round(y), value: null, read: null });
    list();
    draw();
  });
  image.addEventListener("load", draw);
  window.addEventListener("resize", draw);

  $("teach-throw").addEventListener("click", async () => {
    try {
      lesson = await post("/api/dice-sets/" + setId() + "/lesson", {});
    } catch (e) { return; }
    dice = lesson.dice.map((d) => ({ box: d.box, value: d.value, read: d.value }));
    $("teach-photo").hidden = false;
    $("teach-hint").hidden = false;
    $("teach-confirm").hidden = false;
    image.src = "/photos/" + lesson.photo;
    list();
    draw();
  });

  $("teach-confirm").addEventListener("click", async () => {
    if (!lesson) return;
    // a box marked "no die here" is taught as no die (a token, a coin the reader took for one)
    const named = dice.map((d) => d.box ? { ...d, value: d.value || 0 } : d);
    if (named.some((d) => !d.box && !d.value)) { toast(T.all_values, "error"); return; }
    try {
      const summary = await post("/api/dice-sets/" + setId() + "/teach", { lesson: lesson.lesson, dice: named, kind: lesson.kind });
      summarise(summary);
    } catch (e) { return; }
    lesson = null;
    dice = [];
    list();
    draw();
    $("teach-confirm").hidden = true;
    $("teach-photo").hidden = true;
    $("teach-hint").hidden = true;
  });

  $("teach-new").addEventListener("click", async () => {
    const input = $("teach-new-name");
    if (!input.value.trim()) { input.placeholder = T.name_first; input.focus(); return; }
    let made;
    try { made = await post("/api/dice-sets", { name: input.value.trim() }); } catch (e) { return; }
    const select = $("teach-set");
    select.textContent = "";
    for (const s of made.sets) {
      const option = document.createElement("option");
      option.value = s.id;
      option.textContent = s.name;
      option.dataset.ranks = s.ranks;
      option.selected = s.id === made.set;
      select.append(option);
    }
    input.value = "";
    select.dispatchEvent(new Event("change"));  // the toggle shows the new set's letters
    summarise(null);
  });

  $("teach-set").addEventListener("change", async () => {
    const response = await fetch("/api/dice-sets/" + setId());
    if (response.ok) summarise(await response.json());
  });

  $("teach-forget").addEventListener("click", async () => {
    if (!setId() || !window.confirm(T.forget)) return;
    try { summarise(await post("/api/dice-sets/" + setId() + "/forget", {})); } catch (e) { /* toast shown */ }
  });

  // the letters the set's poker dice print: shown for the chosen set, a tap records them
  bindRankToggle($("teach-ranks"), $("teach-set"));
  const redraw = () => { list(); draw(); summarise(shown); };
  for (const radio of document.querySelectorAll("#teach-ranks input")) radio.addEventListener("change", redraw);

  summarise(readJson("teach-summary-data"));
  // what the set reads now on its taught photos comes after the page (the reader is busy)
  if (setId()) {
    fetch("/api/dice-sets/" + setId())
      .then((response) => (response.ok ? response.json() : null))
      .then((summary) => { if (summary) summarise(summary); })
      .catch(() => {});
  }
})();
