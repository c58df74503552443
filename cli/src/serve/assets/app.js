// The page of `grail serve`: it asks the server for views (what one seat, or a spectator,
// may see) and draws them. Nothing is fetched from anywhere but this server.
"use strict";

const $ = (id) => document.getElementById(id);
let games = [];
// The table on screen: its number, the seat's token (a played table), how it is played;
// for a replay, its length, the move it is shown after and the one last asked for.
let current = null;
// The number of the last request made through act(): only its answer is drawn, so an
// earlier answer arriving late never replaces a later one.
let asked = 0;
// A move of the person's is on its way: another click does not send a second one.
let moving = false;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

function seatName(seat) { return "P" + (seat + 1); }

function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  box.hidden = !text;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function showPanel(name) {
  for (const id of ["new", "replay", "report"]) $(id).hidden = id !== name;
  if (name) $("table").hidden = true;
  showError("");
}

function fillGames(select) {
  select.replaceChildren(...games.map((g) => el("option", { value: g.id, textContent: g.name })));
}

function gameOf(id) { return games.find((g) => g.id === id); }

function fillVariants(gameSelect, variantSelect) {
  const g = gameOf(gameSelect.value);
  const options = [el("option", { value: "", textContent: "the base game" })];
  for (const [id, name] of (g ? g.variants : [])) options.push(el("option", { value: id, textContent: name }));
  variantSelect.replaceChildren(...options);
}

function fillPlayers() {
  const g = gameOf($("game").value);
  if (!g) return;
  const [lo, hi] = g.players;
  const options = [];
  for (let n = lo; n <= hi; n++) options.push(el("option", { value: n, textContent: n }));
  $("players").replaceChildren(...options);
  fillSeats();
}

function fillSeats() {
  const n = Number($("players").value);
  const options = [];
  for (let s = 1; s <= n; s++) options.push(el("option", { value: s, textContent: "P" + s }));
  options.push(el("option", { value: "", textContent: "nobody: watch the bots" }));
  $("seat").replaceChildren(...options);
}

// ---- drawing a view ----

function drawPart(part, viewer) {
  if (part.kind === "zone") {
    const mine = viewer !== null && part.owner === viewer;
    const name = part.owner === null ? part.name : part.name + " " + seatName(part.owner);
    const node = el("div", { class: "zone" + (mine ? " mine" : "") }, el("span", { class: "name", textContent: name }));
    const cards = (list, hidden, into) => {
      for (const c of list) into.append(el("span", { class: "card", textContent: c }));
      if (hidden > 0) into.append(el("span", { class: "card hidden", textContent: hidden + (hidden === 1 ? " card" : " cards") }));
      if (list.length === 0 && hidden === 0) into.append(el("span", { class: "empty", textContent: "—" }));
    };
    if (part.rows.length > 0) {
      for (const r of part.rows) {
        const row = el("span", { class: "row" }, el("span", { class: "row-name", textContent: r.name + ":" }));
        cards(r.cards, r.hidden, row);
        node.append(row);
      }
    } else {
      cards(part.cards, part.hidden, node);
    }
    return node;
  }
  if (part.kind === "counter") {
    const said = (v, s) => (part.words && part.words[s] !== undefined ? part.words[s] : String(v));
    const values = part.owned ? part.values.map((v, s) => seatName(s) + " " + said(v, s)).join(", ") : said(part.values[0] ?? 0, 0);
    return el("div", { class: "counter" }, el("span", { class: "name", textContent: part.name + ": " }), values);
  }
  return null;
}

function drawTable(view) {
  const parts = $("parts");
  parts.replaceChildren();
  let lines = null;
  for (const part of view.table) {
    if (part.kind === "line") {
      if (!lines) { lines = el("pre", { class: "lines" }); parts.append(lines); }
      lines.append(part.text + "\n");
      continue;
    }
    lines = null;
    parts.append(drawPart(part, view.viewer));
  }
}

function drawScores(view) {
  const table = $("scores");
  table.hidden = view.scores.length === 0;
  const rows = view.scores.map((s) => el("tr", {},
    el("td", { textContent: seatName(s.seat) }),
    el("td", { textContent: String(s.total), class: "total" }),
    el("td", { textContent: s.parts.map(([label, v]) => label + " " + v).join(", ") })));
  table.tBodies[0].replaceChildren(...rows);
}

function drawLog(view) {
  const entries = [];
  if (view.setup_log.length > 0) {
    entries.push(el("li", { class: "setup" }, "setup", el("div", { class: "events", textContent: view.setup_log.join("; ") })));
  }
  // Each move numbered as the move it is (the setup is not one).
  for (const [i, e] of view.log.entries()) {
    entries.push(el("li", { value: i + 1 }, seatName(e.seat) + ": " + e.text,
      el("div", { class: "events", textContent: e.events.join("; ") })));
  }
  $("log").replaceChildren(...entries);
  $("log").scrollTop = $("log").scrollHeight;
}

function drawStatus(answer) {
  const v = answer.view;
  const name = (gameOf(v.game) || { name: v.game }).name + (v.variant ? " (" + v.variant + ")" : "");
  const who = v.viewer === null ? "watching" : "you are " + seatName(v.viewer);
  const turn = v.to_move === null ? "" : "; " + seatName(v.to_move) + " to move";
  $("status").textContent = name + ", " + v.players + " players, " + who + "; move " + v.moves_made + turn;
  const over = $("over");
  over.hidden = !v.over;
  if (v.over) {
    const winners = v.over.winners.map(seatName).join(" and ");
    const scores = v.over.scores.map((s, i) => seatName(i) + " " + s).join(", ");
    over.textContent = "The game is over (" + v.over.end + "): " + (winners || "nobody") + " won. Scores: " + scores + ".";
  }
}

function drawMoves(answer) {
  const v = answer.view;
  const mine = answer.mode === "play" && v.viewer !== null && v.to_move === v.viewer;
  $("prompt").textContent = v.over ? "" : (mine ? (v.prompt || "Your move") : (v.to_move === null ? "" : "Waiting for " + seatName(v.to_move)));
  // What every move of a kind costs is said once, above the moves.
  const notes = [];
  for (const m of v.moves) if (m.note && !notes.includes(m.note)) notes.push(m.note);
  const buttons = v.moves.map((m) => {
    const b = el("button", { type: "button", class: "move", "data-text": m.text }, m.number + ") " + m.text);
    if (m.gain !== null && m.gain !== 0) b.append(el("span", { class: "gain", textContent: (m.gain > 0 ? "+" : "") + m.gain }));
    if (m.pays) b.append(el("span", { class: "pays", textContent: "pay " + m.pays }));
    b.addEventListener("click", () => play(m.text));
    return b;
  });
  $("moves").replaceChildren(...notes.map((n) => el("p", { class: "note", textContent: n })), ...buttons);
  $("typed").disabled = !mine;
  $("send").disabled = !mine;
}

function draw(answer) {
  current = { table: answer.table, token: answer.token || (current && current.table === answer.table ? current.token : null), mode: answer.mode, length: answer.length, at: answer.at, want: answer.at };
  if (current.token) localStorage.setItem("grail-table", JSON.stringify({ table: current.table, token: current.token }));
  for (const id of ["new", "replay", "report"]) $(id).hidden = true;
  $("table").hidden = false;
  $("table").dataset.mode = answer.mode;
  $("play-controls").hidden = answer.mode !== "play";
  $("watch-controls").hidden = answer.mode !== "watch";
  $("replay-controls").hidden = answer.mode !== "replay";
  const v = answer.view;
  drawStatus(answer);
  drawTable(v);
  drawScores(v);
  drawMoves(answer);
  drawLog(v);
  if (answer.mode === "watch") {
    $("step").disabled = !!v.over;
    $("run").disabled = !!v.over;
  }
  if (answer.mode === "replay") {
    $("at").max = answer.length;
    $("at").value = answer.at;
    $("position").textContent = "after move " + answer.at + " of " + answer.length;
    $("back").disabled = answer.at === 0;
    $("forward").disabled = answer.at >= answer.length;
  }
  if (answer.mode === "play" && current.token) {
    $("download-save").href = "/api/tables/" + current.table + "/save?token=" + encodeURIComponent(current.token);
  }
}

// ---- actions ----

async function act(work) {
  const mine = ++asked;
  showError("");
  try {
    const answer = await work();
    if (mine === asked) draw(answer);
  } catch (e) {
    if (mine === asked) showError(e.message);
  }
}

async function play(text) {
  if (moving) return;
  moving = true;
  try { await act(() => api("POST", "/api/tables/" + current.table + "/move", { token: current.token, text })); }
  finally { moving = false; }
}

async function start(event) {
  event.preventDefault();
  const seat = $("seat").value;
  const seed = $("seed").value;
  await act(() => api("POST", "/api/tables", {
    game: $("game").value,
    variant: $("variant").value || null,
    players: Number($("players").value),
    seat: seat ? Number(seat) : null,
    bot: $("bot").value,
    seed: seed === "" ? null : Number(seed),
  }));
}

async function readFile() {
  const file = $("replay-file").files[0];
  if (!file) throw new Error("choose a file first");
  return file.text();
}

// Plays the watched table on to its end; it stops as soon as another table is on screen.
async function runToEnd() {
  $("run").disabled = true;
  const table = current.table;
  while (current && current.mode === "watch" && current.table === table) {
    let answer;
    try { answer = await api("POST", "/api/tables/" + table + "/step", { moves: 5 }); }
    catch (e) { showError(e.message); return; }
    if (!current || current.table !== table) return;
    draw(answer);
    if (answer.view.over) return;
    await new Promise((r) => setTimeout(r, 60));
  }
}

// Shows the replay after its first `at` moves. Steps count from the position last asked
// for, so clicks made before the answers come each step on from the one before.
function seek(at) {
  const table = current.table;
  const want = Math.max(0, Math.min(current.length, at));
  current.want = want;
  $("at").value = want;
  $("back").disabled = want === 0;
  $("forward").disabled = want >= current.length;
  return act(() => api("POST", "/api/replays/" + table + "/seek", { at: want }));
}

async function init() {
  $("nav-new").addEventListener("click", () => showPanel("new"));
  $("nav-replay").addEventListener("click", () => showPanel("replay"));
  $("nav-report").addEventListener("click", () => showPanel("report"));
  $("new-form").addEventListener("submit", start);
  $("game").addEventListener("change", () => { fillVariants($("game"), $("variant")); fillPlayers(); });
  $("players").addEventListener("change", fillSeats);
  $("report-game").addEventListener("change", () => fillVariants($("report-game"), $("report-variant")));
  $("typed-form").addEventListener("submit", (e) => { e.preventDefault(); const t = $("typed").value.trim(); if (t) { $("typed").value = ""; play(t); } });
  $("step").addEventListener("click", () => act(() => api("POST", "/api/tables/" + current.table + "/step", {})));
  $("run").addEventListener("click", runToEnd);
  $("back").addEventListener("click", () => seek(current.want - 1));
  $("forward").addEventListener("click", () => seek(current.want + 1));
  $("at").addEventListener("change", () => seek(Number($("at").value)));
  $("replay-form").addEventListener("submit", async (e) => { e.preventDefault(); await act(async () => api("POST", "/api/replays", { text: await readFile() })); });
  $("resume-save").addEventListener("click", async () => act(async () => api("POST", "/api/saves", { text: await readFile() })));
  $("report-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const q = new URLSearchParams({ game: $("report-game").value, games: $("report-games").value || "500" });
    if ($("report-variant").value) q.set("variant", $("report-variant").value);
    if ($("report-players").value.trim()) q.set("players", $("report-players").value.trim());
    if ($("report-agents").value.trim()) q.set("agents", $("report-agents").value.trim());
    window.open("/report?" + q.toString(), "_blank");
  });
  try { games = await api("GET", "/api/games"); } catch (e) { showError(e.message); return; }
  fillGames($("game"));
  fillGames($("report-game"));
  fillVariants($("game"), $("variant"));
  fillVariants($("report-game"), $("report-variant"));
  fillPlayers();
  // A game left open in this browser is taken up again where it stood.
  const kept = JSON.parse(localStorage.getItem("grail-table") || "null");
  if (kept && location.hash !== "#new") {
    try {
      current = kept;
      draw(await api("GET", "/api/tables/" + kept.table + "?token=" + encodeURIComponent(kept.token)));
      return;
    } catch (_) { localStorage.removeItem("grail-table"); current = null; }
  }
  showPanel("new");
}

document.addEventListener("DOMContentLoaded", init);
