// The game page: photo upload with progress, live refresh, and the correction dialog.
// Plain script, no build step. Every change goes through the JSON API (Content-Type:
// application/json, or the X-CSRF-Token header for the multipart photo upload).
(function () {
  "use strict";
  const root = document.getElementById("game");
  if (!root) return;
  const api = root.dataset.api;            // /api/games/<id>
  const page = root.dataset.page;          // /games/<id>
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  const live = document.getElementById("live");
  const dialog = document.getElementById("fix");
  let version = root.dataset.version;
  let busy = false;

  // ---- live refresh: poll the version every second, fetch the panels when it changed --------
  async function refresh(force) {
    if (busy) return;
    const active = document.activeElement;
    if (!force && (dialog.open || (active && live.contains(active) && active.matches("input, select")))) return;
    busy = true;
    try {
      const r = await fetch(api + "/version", { cache: "no-store" });
      if (r.ok) {
        const v = String((await r.json()).version);
        if (force || v !== version) {
          const html = await (await fetch(page + "?partial=1", { cache: "no-store" })).text();
          live.innerHTML = html;
          version = v;
        }
      }
    } catch (e) { /* offline for a moment: try again next tick */ }
    busy = false;
  }
  setInterval(() => refresh(false), 1000);

  // ---- upload ------------------------------------------------------------------------------
  const input = document.getElementById("photo-input");
  const drop = document.getElementById("drop");
  const progress = document.getElementById("progress");
  const bar = document.getElementById("bar");
  const ptext = document.getElementById("progress-text");
  const status = document.getElementById("upload-status");

  function say(text, isError) { status.textContent = text; status.classList.toggle("error", !!isError); }

  function upload(file) {
    if (!file) return;
    const fd = new FormData();
    fd.append("photo", file);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", api + "/photos");
    xhr.setRequestHeader("X-CSRF-Token", csrf);
    xhr.setRequestHeader("Accept", "application/json");
    progress.hidden = false; progress.classList.remove("reading"); bar.style.width = "0";
    ptext.textContent = "Sending the photo…"; say("");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) {
        bar.style.width = Math.round(100 * e.loaded / e.total) + "%";
        ptext.textContent = "Sending the photo… " + Math.round(100 * e.loaded / e.total) + "%";
      }
    };
    xhr.upload.onload = () => { progress.classList.add("reading"); ptext.textContent = "Reading the board…"; };
    xhr.onload = () => {
      progress.hidden = true;
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) {
        const t = body.state ? body.state.tiles.length : 0, m = body.state ? body.state.meeples.length : 0;
        const w = (body.warnings || []).length, d = (body.doubtful || []).length;
        say("Read " + t + " tiles and " + m + " figures." + (d ? " " + d + " cell(s) to check (orange)." : "") +
            (w ? " " + w + " warning(s)." : ""));
        refresh(true).then(() => { const b = document.getElementById("board"); if (b) b.scrollIntoView(); });
      } else {
        say(body.error || ("The photo could not be read (error " + xhr.status + ")."), true);
      }
      input.value = "";
    };
    xhr.onerror = () => { progress.hidden = true; say("The photo could not be sent: check the connection.", true); };
    xhr.send(fd);
  }
  input.addEventListener("change", () => upload(input.files[0]));
  ["dragenter", "dragover"].forEach((t) => drop.addEventListener(t, (e) => { e.preventDefault(); drop.classList.add("over"); }));
  ["dragleave", "drop"].forEach((t) => drop.addEventListener(t, (e) => { e.preventDefault(); drop.classList.remove("over"); }));
  drop.addEventListener("drop", (e) => { if (e.dataTransfer.files.length) upload(e.dataTransfer.files[0]); });

  // ---- corrections ---------------------------------------------------------------------------
  const body = document.getElementById("fix-body");
  const title = document.getElementById("fix-title");
  const ferr = document.getElementById("fix-error");

  async function post(path, payload) {
    const r = await fetch(api + path, {
      method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(payload),
    });
    const out = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(out.error || ("error " + r.status));
    return out;
  }
  async function change(path, payload) {
    ferr.textContent = "";
    try { await post(path, payload); dialog.close(); await refresh(true); }
    catch (e) { ferr.textContent = e.message; }
  }
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function option(select, value, label) { select.appendChild(el("option", { value: value }, label)); }

  async function openCell(x, y, focusFigure) {
    ferr.textContent = ""; body.textContent = "Loading…";
    title.textContent = "Cell [" + x + ", " + y + "]";
    if (!dialog.open) dialog.showModal();
    let info;
    try { info = await (await fetch(api + "/cells/" + x + "/" + y, { cache: "no-store" })).json(); }
    catch (e) { body.textContent = "Could not load this cell."; return; }
    if (info.error) { body.textContent = info.error; return; }
    body.textContent = "";
    if (info.tile) title.textContent += " · tile " + (typeof info.tile.tile === "string" ? info.tile.tile : "inline") + ", " + info.tile.rot + "°";
    // figures on this cell
    if (info.tile) {
      body.appendChild(el("h3", {}, "Figures"));
      info.figures.forEach((f) => {
        const row = el("div", { class: "fig-row" + (focusFigure && focusFigure.player === f.player && focusFigure.on === f.on ? " focus" : "") });
        const seg = info.segments.find((s) => s.on === f.on);
        row.appendChild(el("span", { class: "chip", style: "--c: var(--p-" + f.player + ", #777)" }, f.player));
        row.appendChild(el("span", {}, " on " + (seg ? seg.kind : "") + " (" + f.on + ")"));
        const move = el("select", { "aria-label": "move to" });
        option(move, "", "move to…");
        info.segments.filter((s) => s.on !== f.on).forEach((s) => option(move, s.on, s.kind + " (" + s.on + ")"));
        move.addEventListener("change", () => move.value && change("/figures",
          { action: "move", player: f.player, at: [x, y], on: f.on, to: { at: [x, y], on: move.value } }));
        const rm = el("button", { type: "button", class: "small" }, "Remove");
        rm.addEventListener("click", () => change("/figures", { action: "remove", player: f.player, at: [x, y], on: f.on }));
        row.appendChild(move); row.appendChild(rm);
        body.appendChild(row);
      });
      if (!info.figures.length) body.appendChild(el("p", { class: "hint" }, "No figure on this tile."));
      const add = el("div", { class: "fig-row" });
      const who = el("select", { "aria-label": "player" }); info.players.forEach((p) => option(who, p, p));
      const where = el("select", { "aria-label": "segment" }); info.segments.forEach((s) => option(where, s.on, s.kind + " (" + s.on + ")"));
      const addb = el("button", { type: "button", class: "small" }, "Add figure");
      addb.addEventListener("click", () => change("/figures", { action: "add", player: who.value, at: [x, y], on: where.value }));
      add.appendChild(el("span", {}, "Add")); add.appendChild(who); add.appendChild(where); add.appendChild(addb);
      body.appendChild(add);
    }
    body.appendChild(el("h3", {}, info.tile ? "Replace the tile (tiles that fit the neighbours)" : "Put a tile here (tiles that fit the neighbours)"));
    const grid = el("div", { class: "cands" });
    info.candidates.forEach((c) => {
      const b = el("button", { type: "button", class: "cand" + (c.current ? " current" : "") + (c.left <= 0 ? " none-left" : ""),
        title: c.tile + " " + c.rot + "°" + (c.left <= 0 ? " (none left in the box)" : ""), "data-tile": c.tile, "data-rot": String(c.rot) });
      b.innerHTML = c.svg;
      b.appendChild(el("span", {}, c.tile + " " + c.rot + "°"));
      b.addEventListener("click", () => change("/tiles", { at: [x, y], tile: c.tile, rot: c.rot }));
      grid.appendChild(b);
    });
    if (!info.candidates.length) grid.appendChild(el("p", { class: "hint" }, "No tile of this game fits here."));
    body.appendChild(grid);
    if (info.tile) {
      const rm = el("button", { type: "button", class: "small", id: "remove-tile" }, "Remove this tile");
      rm.addEventListener("click", () => change("/tiles", { at: [x, y], remove: true }));
      body.appendChild(el("p")).appendChild(rm);
    }
  }

  // ---- questions: "Which happened?" answered with one tap -------------------------------------
  async function choose(button) {
    const form = button.closest("form");
    form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      await post("/steps/" + button.dataset.choose + "/choose", { alternative: Number(button.dataset.alternative) });
      say("Answer saved: " + button.textContent.trim());
      await refresh(true);
    } catch (err) {
      form.querySelectorAll("button").forEach((b) => { b.disabled = false; });
      say(err.message, true);
    }
  }

  // event delegation: the live panels are replaced on refresh
  live.addEventListener("click", (e) => {
    const answer = e.target.closest("button[data-choose]");
    if (answer) { e.preventDefault(); choose(answer); return; }
    const fig = e.target.closest(".figure");
    if (fig) { openCell(+fig.dataset.x, +fig.dataset.y, { player: fig.dataset.player, on: fig.dataset.on }); return; }
    const cell = e.target.closest(".cell");
    if (cell) { openCell(+cell.dataset.x, +cell.dataset.y); return; }
    const check = e.target.closest("[data-cell]");
    if (check) { const [x, y] = check.dataset.cell.split(",").map(Number); openCell(x, y); return; }
    const row = e.target.closest("tr[data-cells]");
    if (row) {
      const cells = JSON.parse(row.dataset.cells).map((c) => c.join(","));
      live.querySelectorAll("svg.board .cell.tile").forEach((g) =>
        g.classList.toggle("highlight", cells.includes(g.dataset.x + "," + g.dataset.y)));
      document.getElementById("board").scrollIntoView({ behavior: "smooth" });
    }
  });
  live.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.closest && e.target.closest(".cell, .figure")) e.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });
})();
