// archai debugview: the page. Plain JavaScript, no libraries, no build step.
"use strict";
(function () {
  const STATUS = ["Idle", "Running", "Success", "Failure", "Skipped"];
  const STATES = ["idle", "moving", "attacking", "fleeing", "pursuing", "down", "arrived", "frozen"];
  const STATE_COLOURS = ["#9a9a9a", "#1f6fd1", "#d13b2f", "#e88a1a", "#8a3fc0", "#333333", "#2a9d4a", "#c4b07c"];
  const TEAM_COLOURS = ["#1f6fd1", "#d13b2f", "#2a9d4a", "#8a3fc0", "#e88a1a", "#17a2b8", "#a0522d", "#e377c2"];
  const COST_COLOURS = ["#3a3a40", "#f4f1ea", "#e8dfc2", "#e2d6b0", "#d3c394", "#c4b07c"];
  const SYS_COLOURS = ["#1f6fd1", "#d13b2f", "#2a9d4a", "#e88a1a", "#8a3fc0", "#17a2b8", "#a0522d", "#e377c2", "#7f7f7f", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39"];

  const $ = (id) => document.getElementById(id);
  const canvas = $("map"), ctx = canvas.getContext("2d");
  const st = {
    snap: null, agents: null, map: null, mapCanvas: null, mapVersion: -1,
    flow: null, flowKey: "", view: { scale: 4, ox: 0, oy: 0, fitted: false },
    scrub: null, history: [], sysNames: [], treeKey: "", dirty: true,
  };
  window.debugview = st; // for tests and the console

  // ---- commands ----
  function cmd(params) {
    const body = new URLSearchParams(params);
    return fetch("cmd", { method: "POST", body }).then((r) => {
      if (!r.ok) r.text().then((t) => setStatus(t));
      return r.status;
    });
  }
  st.cmd = cmd;
  $("pause").onclick = () => cmd({ op: "pause" });
  $("resume").onclick = () => cmd({ op: "resume" });
  $("step").onclick = () => cmd({ op: "step" });
  $("deselect").onclick = () => cmd({ op: "deselect" });
  $("speed").onchange = (e) => cmd({ op: "speed", value: e.target.value });
  $("colour").onchange = () => { drawLegend(); st.dirty = true; };
  function renderScrubbed() { renderTree(); renderPlan(); renderFSM(); renderUtility(); renderLog(); }
  $("live").onclick = () => { st.scrub = null; renderScrubbed(); };
  $("scrub").oninput = (e) => {
    const log = logWindow();
    st.scrub = log.t0 + (log.t1 - log.t0) * (e.target.value / 1000);
    renderScrubbed();
  };
  function setStatus(t) { $("status").textContent = t; }

  // ---- data ----
  function decodeB64(s) {
    const bin = atob(s || "");
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function decodeAgents(b64, n) {
    const bytes = decodeB64(b64);
    const dv = new DataView(bytes.buffer);
    const ids = new Uint32Array(n), xs = new Float32Array(n), ys = new Float32Array(n);
    const teams = new Uint8Array(n), states = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const o = i * 16;
      ids[i] = dv.getUint32(o, true); xs[i] = dv.getFloat32(o + 4, true); ys[i] = dv.getFloat32(o + 8, true);
      teams[i] = dv.getUint8(o + 12); states[i] = dv.getUint8(o + 13);
    }
    return { n, ids, xs, ys, teams, states };
  }
  function onSnapshot(s) {
    st.snap = s;
    st.agents = decodeAgents(s.agents, s.count);
    const teams = new Set(st.agents.teams), key = [...teams].sort((x, y) => x - y).join(",");
    if (key !== st.teamsKey) { st.teams = teams; st.teamsKey = key; drawLegend(); }
    $("frame").textContent = s.frame;
    $("time").textContent = s.time.toFixed(2);
    $("fps").textContent = s.paused || s.ended ? "0" : s.stalled ? "–" : s.fps.toFixed(0);
    $("count").textContent = s.count;
    $("pause").disabled = s.paused || s.ended; $("resume").disabled = !s.paused || s.ended; $("step").disabled = !!s.ended;
    const sp = $("speed");
    if (document.activeElement !== sp && [...sp.options].some((o) => Number(o.value) === s.speed)) sp.value = [...sp.options].find((o) => Number(o.value) === s.speed).value;
    setStatus(s.ended ? "simulation ended: the last frame" : s.paused ? "paused" : stallText(s));
    if (s.mapVersion !== st.mapVersion) loadMap(s.mapVersion);
    if (s.flowKey !== st.flowKey) loadFlow(s.flowKey);
    pushHistory(s.systems || []);
    renderAgent(); renderTree(); renderPlan(); renderFSM(); renderUtility(); renderLog(); renderSystems(); renderDiagnostics();
    st.dirty = true;
  }
  function loadMap(version) {
    st.mapVersion = version;
    fetch("map").then((r) => (r.ok ? r.json() : null)).then((m) => {
      if (!m) return;
      const cells = decodeB64(m.cells);
      const c = document.createElement("canvas");
      c.width = m.width; c.height = m.height;
      const cx = c.getContext("2d"), img = cx.createImageData(m.width, m.height);
      const rgb = COST_COLOURS.map((h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)]);
      for (let i = 0; i < cells.length; i++) {
        const col = rgb[Math.min(cells[i], rgb.length - 1)];
        img.data[4 * i] = col[0]; img.data[4 * i + 1] = col[1]; img.data[4 * i + 2] = col[2]; img.data[4 * i + 3] = 255;
      }
      cx.putImageData(img, 0, 0);
      st.map = m; st.mapCanvas = c;
      if (!st.view.fitted) fit();
      st.dirty = true;
    });
  }
  function loadFlow(key) {
    st.flowKey = key;
    if (!key) { st.flow = null; st.dirty = true; return; }
    fetch("flow").then((r) => (r.ok ? r.json() : null)).then((f) => {
      if (f && f.key === st.flowKey) { f.dirs = decodeB64(f.dirs); st.flow = f; st.dirty = true; }
    });
  }
  // stallText says that no frame has come for a while (Snapshot.Stalled), else "".
  function stallText(s) {
    return s.stalled ? `stalled: no frame for ${s.sinceFrame.toFixed(0)} s (the loop stopped without Finalize, or a system is stuck in its Update)` : "";
  }
  // onHeartbeat: while no snapshot comes, the server says every second how long since the last frame.
  function onHeartbeat(h) {
    if (!st.snap || st.snap.ended || st.snap.paused) return;
    st.snap.stalled = h.stalled; st.snap.sinceFrame = h.sinceFrame;
    $("fps").textContent = h.stalled ? "–" : st.snap.fps.toFixed(0);
    setStatus(stallText(st.snap));
    $("status").classList.toggle("stalled", !!h.stalled);
  }
  function connect() {
    const es = new EventSource("events");
    es.addEventListener("snapshot", (e) => { onSnapshot(JSON.parse(e.data)); $("status").classList.toggle("stalled", !!st.snap.stalled); });
    es.addEventListener("heartbeat", (e) => onHeartbeat(JSON.parse(e.data)));
    es.onerror = () => setStatus("disconnected: retrying…");
  }

  // ---- map view ----
  function resize() {
    const r = canvas.getBoundingClientRect();
    canvas.width = Math.max(1, Math.round(r.width)); canvas.height = Math.max(1, Math.round(r.height));
    st.dirty = true;
  }
  function fit() {
    if (!st.map) return;
    const v = st.view;
    v.scale = Math.max(0.1, Math.min(canvas.width / st.map.width, canvas.height / st.map.height));
    v.ox = (canvas.width - st.map.width * v.scale) / 2; v.oy = (canvas.height - st.map.height * v.scale) / 2;
    v.fitted = true; st.dirty = true;
  }
  const toScreen = (x, y) => [st.view.ox + x * st.view.scale, st.view.oy + y * st.view.scale];
  st.agentScreen = function (id) { // the canvas-relative position of agent id, or null
    const a = st.agents; if (!a) return null;
    for (let i = 0; i < a.n; i++) if (a.ids[i] === id) return toScreen(a.xs[i], a.ys[i]);
    return null;
  };
  let drag = null;
  canvas.addEventListener("mousedown", (e) => { drag = { x: e.offsetX, y: e.offsetY, ox: st.view.ox, oy: st.view.oy, moved: false }; });
  canvas.addEventListener("mousemove", (e) => {
    if (!drag) return;
    const dx = e.offsetX - drag.x, dy = e.offsetY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) { st.view.ox = drag.ox + dx; st.view.oy = drag.oy + dy; st.dirty = true; }
  });
  canvas.addEventListener("mouseup", (e) => {
    if (drag && !drag.moved) pick(e.offsetX, e.offsetY);
    drag = null;
  });
  canvas.addEventListener("dblclick", fit);
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const v = st.view, f = Math.exp(-e.deltaY * 0.0015);
    const ns = Math.min(200, Math.max(0.05, v.scale * f));
    v.ox = e.offsetX - (e.offsetX - v.ox) * (ns / v.scale); v.oy = e.offsetY - (e.offsetY - v.oy) * (ns / v.scale);
    v.scale = ns; st.dirty = true;
  }, { passive: false });
  function pick(px, py) {
    const a = st.agents; if (!a) return;
    let best = -1, bd = 12 * 12;
    for (let i = 0; i < a.n; i++) {
      const [sx, sy] = toScreen(a.xs[i], a.ys[i]);
      const d = (sx - px) * (sx - px) + (sy - py) * (sy - py);
      if (d < bd) { bd = d; best = i; }
    }
    if (best >= 0) { st.scrub = null; cmd({ op: "select", id: String(a.ids[best]) }); }
  }
  function colourOf(a, i) {
    if ($("colour").value === "state") return STATE_COLOURS[a.states[i]] || "#000";
    return a.teams[i] === 255 ? "#555" : TEAM_COLOURS[a.teams[i] % TEAM_COLOURS.length];
  }
  function draw() {
    requestAnimationFrame(draw);
    if (!st.dirty) return;
    st.dirty = false;
    const v = st.view;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#ddd8cc"; ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (st.mapCanvas) {
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(st.mapCanvas, v.ox, v.oy, st.map.width * v.scale, st.map.height * v.scale);
    }
    drawFlow();
    const a = st.agents, sel = st.snap && st.snap.selected;
    let drawn = 0;
    if (a) {
      const size = Math.max(2, Math.min(10, v.scale * 0.7));
      for (let i = 0; i < a.n; i++) {
        const [sx, sy] = toScreen(a.xs[i], a.ys[i]);
        if (sx < -size || sy < -size || sx > canvas.width + size || sy > canvas.height + size) continue;
        ctx.fillStyle = colourOf(a, i);
        ctx.fillRect(sx - size / 2, sy - size / 2, size, size);
        drawn++;
      }
    }
    canvas.dataset.agents = String(drawn);
    if (sel && sel.alive) drawSelected(sel);
  }
  function drawFlow() {
    const f = st.flow; if (!f || !st.map) return;
    const v = st.view, step = Math.max(1, Math.ceil(20 / v.scale));
    const DX = [1, 1, 0, -1, -1, -1, 0, 1], DY = [0, -1, -1, -1, 0, 1, 1, 1];
    ctx.strokeStyle = "rgba(70,60,40,.7)"; ctx.lineWidth = 1; ctx.beginPath();
    for (let y = Math.floor(step / 2); y < f.height; y += step) {
      for (let x = Math.floor(step / 2); x < f.width; x += step) {
        const d = f.dirs[y * f.width + x];
        if (d > 7) continue;
        const [sx, sy] = toScreen(x + 0.5, y + 0.5);
        if (sx < 0 || sy < 0 || sx > canvas.width || sy > canvas.height) continue;
        const n = Math.hypot(DX[d], DY[d]), len = Math.min(step * v.scale * 0.4, 12);
        const ex = sx + DX[d] / n * len, ey = sy + DY[d] / n * len;
        ctx.moveTo(sx, sy); ctx.lineTo(ex, ey);
        const ax = -DX[d] / n, ay = -DY[d] / n;
        ctx.moveTo(ex, ey); ctx.lineTo(ex + (ax * 0.8 - ay * 0.5) * 4, ey + (ay * 0.8 + ax * 0.5) * 4);
        ctx.moveTo(ex, ey); ctx.lineTo(ex + (ax * 0.8 + ay * 0.5) * 4, ey + (ay * 0.8 - ax * 0.5) * 4);
      }
    }
    ctx.stroke();
    const [gx, gy] = toScreen(f.goal.x, f.goal.y);
    ctx.strokeStyle = "#d13b2f"; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(gx, gy, 8, 0, 2 * Math.PI); ctx.stroke();
  }
  function drawSelected(s) {
    const v = st.view, [px, py] = toScreen(s.pos.x, s.pos.y);
    if (s.path && s.path.waypoints && s.path.waypoints.length) {
      ctx.strokeStyle = "#8a3fc0"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(px, py);
      for (let i = Math.max(0, s.path.next); i < s.path.waypoints.length; i++) {
        const [wx, wy] = toScreen(s.path.waypoints[i].x, s.path.waypoints[i].y); ctx.lineTo(wx, wy);
      }
      ctx.stroke();
    }
    const p = s.perception;
    if (p && p.range > 0) {
      const r = p.range * v.scale;
      ctx.fillStyle = "rgba(232,138,26,.12)"; ctx.strokeStyle = "rgba(232,138,26,.8)"; ctx.lineWidth = 1;
      ctx.beginPath();
      if (p.fov > 0 && p.fov < 2 * Math.PI && (p.heading.x || p.heading.y)) {
        const h = Math.atan2(p.heading.y, p.heading.x);
        ctx.moveTo(px, py); ctx.arc(px, py, r, h - p.fov / 2, h + p.fov / 2); ctx.closePath();
      } else ctx.arc(px, py, r, 0, 2 * Math.PI);
      ctx.fill(); ctx.stroke();
      if (p.visible && p.targetAt) {
        const [tx, ty] = toScreen(p.targetAt.x, p.targetAt.y);
        ctx.strokeStyle = "#d13b2f"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(px, py); ctx.lineTo(tx, ty); ctx.stroke();
      } else if (p.hasLastSeen) {
        const [tx, ty] = toScreen(p.lastSeen.x, p.lastSeen.y);
        ctx.strokeStyle = "rgba(209,59,47,.6)"; ctx.setLineDash([4, 4]); ctx.beginPath(); ctx.moveTo(px, py); ctx.lineTo(tx, ty); ctx.stroke(); ctx.setLineDash([]);
      }
    }
    if (s.intent && s.intent.move) {
      const [gx, gy] = toScreen(s.intent.goal.x, s.intent.goal.y);
      ctx.strokeStyle = "#2a9d4a"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(gx - 5, gy - 5); ctx.lineTo(gx + 5, gy + 5); ctx.moveTo(gx + 5, gy - 5); ctx.lineTo(gx - 5, gy + 5); ctx.stroke();
    }
    ctx.strokeStyle = "#000"; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(px, py, Math.max(6, v.scale), 0, 2 * Math.PI); ctx.stroke();
  }
  function drawLegend() {
    const byState = $("colour").value === "state";
    // by team: the teams the agents have (255: no Faction), in order
    const present = [...(st.teams || [])].sort((x, y) => x - y);
    const items = byState ? STATES.map((n, i) => [STATE_COLOURS[i], n])
      : present.map((t) => t === 255 ? ["#555", "no team"] : [TEAM_COLOURS[t % TEAM_COLOURS.length], "team " + t]);
    $("legend").innerHTML = items.map(([c, n]) => `<span class="sw" style="background:${c}"></span>${n}`).join("") +
      ' <span class="sw" style="background:#3a3a40;border-radius:0"></span>wall <span class="sw" style="background:#c4b07c;border-radius:0"></span>costly';
  }

  // ---- side panel ----
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const fmt = (x) => (typeof x === "number" ? (Number.isInteger(x) ? String(x) : x.toFixed(2)) : x);
  const pt = (p) => `(${fmt(p.x)}, ${fmt(p.y)})`;
  function row(k, v) { return `<tr><td class="k">${esc(k)}</td><td>${v}</td></tr>`; }
  function renderAgent() {
    const s = st.snap, a = s.selected;
    if (!a) { $("agent").innerHTML = s.selectError ? `<span class="err">${esc(s.selectError)}</span>` : "Click an agent on the map."; return; }
    if (!a.alive) { $("agent").innerHTML = `<span class="err">entity ${a.id} is gone</span>`; return; }
    let h = row("entity", `${a.id} (generation ${a.gen})`) + row("position", pt(a.pos));
    if (a.vel) h += row("velocity", pt(a.vel));
    if (a.team !== null) h += row("team", a.team);
    if (a.health) h += row("health", `${fmt(a.health[0])} / ${fmt(a.health[1])}`);
    if (a.intent) h += row("intent", `${a.intent.mode}${a.intent.move ? " to " + pt(a.intent.goal) : ""}${a.intent.attack ? ", attacking " + a.intent.attack : ""}${a.intent.target ? ", target " + a.intent.target : ""}`);
    if (a.think) h += row("think", `every ${fmt(a.think.interval)} s, last ${fmt(a.think.last)}, next ${fmt(a.think.next)}${a.think.frozen ? " (frozen)" : ""}`);
    if (a.path) h += row("path", a.path.state === "none" ? "none" : `${a.path.state}, goal ${pt(a.path.goal)}, waypoint ${a.path.next} of ${(a.path.waypoints || []).length}`);
    if (a.perception) {
      const p = a.perception;
      h += row("perception", `range ${fmt(p.range)}, field of view ${p.fov > 0 && p.fov < 2 * Math.PI ? fmt(p.fov * 180 / Math.PI) + "°" : "all around"}` +
        (p.visible && p.distance !== null ? `, sees ${p.target} at ${fmt(p.distance)} cells` : ", no foe in sight") + (p.hasLastSeen ? `, last seen at ${pt(p.lastSeen)}` : ""));
    }
    if (a.flow) h += row("flow field", `goal ${pt(a.flow.goal)}${a.flow.has ? "" : " (not built yet)"}${a.flow.arrived ? ", arrived" : ""}`);
    h += row("components", `<span class="muted">${esc((a.components || []).join(", "))}</span>`);
    for (const kv of a.values || []) h += row(kv.key, esc(kv.value));
    $("agent").innerHTML = `<table>${h}</table>`;
    let b = "";
    for (const kv of a.blackboard || []) b += row(kv.key, kv.set ? esc(kv.value) : '<span class="muted">unset</span>');
    $("blackboard").innerHTML = b || '<tr><td class="muted">no blackboard</td></tr>';
  }
  function logWindow() {
    const a = st.snap && st.snap.selected, log = (a && a.log) || [], plog = (a && a.planLog) || [];
    const t1 = st.snap ? st.snap.time : 0;
    let t0 = log.length ? Math.min(log[0].t, t1) : t1;
    if (plog.length) t0 = Math.min(t0, plog[0].t);
    if (a && a.fsmLog && a.fsmLog.length) t0 = Math.min(t0, a.fsmLog[0].t);
    if (a && a.utilityLog && a.utilityLog.length) t0 = Math.min(t0, a.utilityLog[0].t);
    for (const tr of (a && a.fsm && a.fsm.trees) || []) if (tr.log && tr.log.length) t0 = Math.min(t0, tr.log[0].t);
    // the slider spans the window: a log's "selected" entry and the entry in force at the
    // window's start may be older, and the entries between them are not kept
    if (st.snap && st.snap.logSeconds > 0) t0 = Math.max(t0, t1 - st.snap.logSeconds);
    return { log, plog, t0, t1 };
  }
  // lastAt returns the last entry of log at or before t (null: t is before the log).
  function lastAt(log, t) {
    let at = null;
    for (const e of log || []) if (e.t <= t) at = e;
    return at;
  }
  // ---- state machine: the active path and the trees run inside states ----
  function renderFSM() {
    const a = st.snap && st.snap.selected, el = $("fsm");
    if (!a || !a.alive || !a.fsm) { el.innerHTML = '<span class="muted">no state machine</span>'; return; }
    const f = a.fsm;
    let path = f.active || [], when = "";
    if (st.scrub !== null) {
      const at = lastAt(a.fsmLog, st.scrub);
      if (at) { path = at.to || []; when = ` <span class="muted">(at t = ${st.scrub.toFixed(2)} s)</span>`; }
      else when = ' <span class="muted">(older than the log: live)</span>';
    }
    const crumbs = path.length ? path.map((n) => `<span class="state">${esc(n)}</span>`).join('<span class="sep">›</span>') : '<span class="muted">not started</span>';
    let h = `<table>${row("machine", esc(f.name))}${row("active", `<span id="fsm-path">${crumbs}</span>${when}`)}` +
      `${row("previous", esc(f.previous))}${row("in state", fmt(f.elapsed) + " s")}${row("transitions", f.transitions)}</table>`;
    const full = path.join("/");
    // active at the scrubbed time: one of its states is on the path of then; the active trees first
    const trees = (f.trees || []).map((tr) => ({ tr, active: st.scrub === null ? tr.active : (tr.states || []).some((s) => full === s || full.startsWith(s + "/")) }))
      .sort((p, q) => q.active - p.active);
    for (const { tr, active } of trees) {
      const s = st.scrub !== null && tr.log ? undoLog(tr.tree.lastStatus || tr.tree.status, tr.log, st.scrub) : tr.tree.status;
      h += `<div class="stree" data-tree="${esc(tr.tree.name)}" data-active="${active ? 1 : 0}">` +
        `<div class="stree-head"><b>${esc(tr.tree.name)}</b> ${tr.states && tr.states.length ? "in " + tr.states.map(esc).join(", ") : '<span class="muted">(no state of the machine runs it)</span>'}` +
        `${active ? "" : ' <span class="muted">(not active)</span>'}${tr.field ? ` <span class="muted">${esc(tr.field)}</span>` : ' <span class="muted">not ticked yet</span>'}</div>` +
        `<div class="tree">` + treeNodes(tr.tree, s, st.scrub === null) + "</div></div>";
    }
    el.innerHTML = h;
  }
  // undoLog undoes, from the live statuses, the transitions of log after time t.
  function undoLog(live, log, t) {
    const s = live.slice();
    if (t === null) return s;
    for (let i = log.length - 1; i >= 0 && log[i].t > t; i--) s[log[i].node] = log[i].from;
    return s;
  }
  // kindLabel returns the HTML of a node's type as the user wrote it
  // ("UtilitySelector"), else its kind, where it differs from the node's name; a type
  // other than the kind has the kind as its title ("Choose").
  function kindLabel(n) {
    const typ = n.type || n.kind, shown = typ !== n.name ? typ : n.kind !== n.name ? n.kind : "";
    if (!shown) return "";
    return `<span class="kind"${shown !== n.kind ? ` title="${esc(n.kind)}"` : ""}>${esc(shown)}</span>`;
  }
  // staleNote returns a node's last status where the live view shows it Idle (its last
  // status is of a run that is over), for its tooltip and badge; "" otherwise.
  function staleNote(n, live) {
    return live && n.stale ? `last ${n.lastStatusName}` : "";
  }
  // treeNodes returns the HTML of a tree's nodes with their statuses; live: the
  // statuses are the latest tick's (a node of a run that is over shows Idle and its last status).
  function treeNodes(t, status, live) {
    const depth = t.nodes.map(() => 0);
    return t.nodes.map((n, i) => {
      depth[i] = n.parent >= 0 ? depth[n.parent] + 1 : 0;
      const name = STATUS[status[i]] || "Status(" + status[i] + ")", note = staleNote(n, live);
      return `<div class="node" data-node="${i}" data-status="${name}"${note ? ` data-stale="1" title="not ticked in its parent's current run: ${note} (from a run that is over)"` : ""} style="margin-left:${depth[i] * 14}px"><span class="name">${esc(n.name)}</span>` +
        kindLabel(n) + `<span class="st">${name}${note ? ` <span class="last">(${esc(note)})</span>` : ""}</span></div>`;
    }).join("");
  }
  // ---- utility: every option's score and how it was made ----
  const num = (x) => (x === null || x === undefined ? "–" : Math.abs(x) >= 1000 || (x !== 0 && Math.abs(x) < 0.001) ? x.toExponential(2) : Number.isInteger(x) ? String(x) : x.toFixed(3));
  function renderUtility() {
    const a = st.snap && st.snap.selected, el = $("utility");
    const sels = (a && a.alive && a.selectors) || [];
    if (!a || !a.alive || (!a.utility && !sels.length)) { el.innerHTML = '<span class="muted">no utility reasoner</span>'; return; }
    let h = "";
    if (a.utility) {
      const u = a.utility;
      let scores = u.scores, choice = u.choice, opts = u.options || [], held = u.held, traced = u.traced, head = "";
      if (st.scrub !== null) {
        const at = lastAt((a.utilityLog || []).filter((x) => !x.field), st.scrub);
        if (at) {
          scores = at.scores; choice = at.choice; opts = at.options || []; held = at.held; traced = at.traced;
          head = ` <span class="muted">(the decision of t = ${at.t.toFixed(2)} s, the last change of choice at or before t = ${st.scrub.toFixed(2)} s)</span>`;
        } else head = ' <span class="muted">(older than the log: live)</span>';
      }
      h += utilityTable(u, scores, choice, opts, held, traced, head);
    }
    // the States of utility choices inside a behavior tree (hybrid.UtilitySelector);
    // scrubbed, the decision of the last change of choice of that State at or before then
    for (const s of sels) {
      h += `<div class="selector" data-field="${esc(s.field)}"><div class="muted">UtilitySelector State ${esc(s.field)}</div>`;
      if (!s.utility) { h += `<span class="muted">${s.decisions} decisions; no reasoner has scored it yet</span></div>`; continue; }
      const u = s.utility;
      let scores = u.scores, choice = u.choice, opts = u.options || [], held = u.held, traced = u.traced, head = "";
      if (st.scrub !== null) {
        const at = lastAt((a.utilityLog || []).filter((x) => x.field === s.field), st.scrub);
        if (at) {
          scores = at.scores; choice = at.choice; opts = at.options || []; held = at.held; traced = at.traced;
          head = ` <span class="muted">(the decision of t = ${at.t.toFixed(2)} s, the last change of choice at or before t = ${st.scrub.toFixed(2)} s)</span>`;
        } else head = ' <span class="muted">(older than the log: live)</span>';
      }
      h += utilityTable(u, scores, choice, opts, held, traced, head) + "</div>";
    }
    el.innerHTML = h;
  }
  function utilityTable(u, scores, choice, opts, held, traced, head) {
    const max = Math.max(1e-9, ...scores, ...opts.map((o) => o.selection));
    let h = `<div class="muted">${esc(u.name)}: ${esc(u.policy)}${u.hysteresis ? `, hysteresis ${num(u.hysteresis)} (the held option counts ×${num(1 + u.hysteresis)})` : ""}, ${u.decisions} decisions` +
      `${u.unread ? `, <span class="err">${u.unread} unread inputs</span>` : ""}` +
      `${u.nan_inputs ? `, <span class="err">${u.nan_inputs} NaN inputs in the last decision</span>` : ""}${head}</div>`;
    h += '<table class="options">' + u.actions.map((n, i) => {
      const o = opts[i] || {}, sc = scores[i];
      const isHeld = i === held && u.hysteresis > 0;
      return `<tr class="option${i === choice ? " chosen" : ""}" data-option="${esc(n)}"><td class="k">${esc(n)}${i === choice ? " ✔" : ""}</td><td>` +
        `<span class="bar${i === choice ? " chosen" : ""}" style="width:${Math.round(160 * sc / max)}px"></span>` +
        (isHeld ? `<span class="bar bonus" style="width:${Math.round(160 * (o.selection - sc) / max)}px" title="hysteresis bonus"></span>` : "") +
        ` <span class="score">${num(sc)}</span>${isHeld ? ` <span class="muted">held: ${num(o.selection)} at selection</span>` : ""}` +
        `${o.vetoed ? ' <span class="err">vetoed</span>' : ""}</td></tr>` +
        (o.considerations && o.considerations.length ? `<tr><td></td><td>${considerations(o, traced)}</td></tr>` : "");
    }).join("") + "</table>";
    return h;
  }
  function considerations(o, traced) {
    const comp = o.combine === "Compensated", ws = o.combine === "WeightedSum";
    let h = `<table class="cons"><tr class="muted"><td>${esc(o.combine)}${o.weight && o.weight !== 1 ? " ×" + num(o.weight) : ""}</td><td>input</td><td>x</td><td>curve</td><td>out</td><td>${comp ? "comp." : ws ? "weight" : ""}</td></tr>`;
    for (const c of o.considerations) {
      const range = c.range ? ` <span class="muted">[${num(c.range[0])}→${num(c.range[1])}]</span>` : "";
      h += `<tr class="con${c.evaluated ? "" : " skipped"}" data-name="${esc(c.name)}" title="${esc(c.note || "")}"><td>${esc(c.name)}${c.veto ? " (veto)" : ""}</td>` +
        `<td class="input">${traced ? num(c.input) : "…"}${range}</td><td class="x">${traced ? num(c.x) : "…"}</td><td class="muted" title="${esc(c.curve)}">${esc(c.curve.split("(")[0])}</td>` +
        `<td class="out">${c.evaluated ? num(c.score) : "skipped"}</td><td class="comp">${!c.evaluated ? "" : comp ? num(c.compensated) : ws ? num(c.weight || 1) : ""}</td></tr>`;
    }
    return h + "</table>";
  }
  // planAt returns the plan's step names and current step at time t: the live plan, or
  // the plan after the last logged change at or before t (every entry carries the plan);
  // null if t is before the log.
  function planAt(p, plog, t) {
    const live = { names: (p.steps || []).map((x) => x.name), step: p.step, started: (p.steps || []).some((x) => x.status === "running") };
    if (t === null) return live;
    let at = null;
    for (const e of plog) if (e.t <= t) at = e;
    if (!at) return plog.length ? null : live;
    return { names: at.plan || [], step: at.step, started: at.started };
  }
  function renderPlan() {
    const a = st.snap && st.snap.selected, el = $("plan");
    if (!a || !a.alive || !a.planner) { el.innerHTML = '<span class="muted">no planner</span>'; $("plan-name").textContent = ""; return; }
    const p = a.planner;
    $("plan-name").textContent = p.kind.toUpperCase() + " " + p.domain;
    if (!p.resolved) { el.innerHTML = `<span class="err">domain ${esc(p.domain)} is not in the registry</span>`; return; }
    let h = "";
    const at = planAt(p, a.planLog || [], st.scrub);
    if (!at) h += '<div class="muted">the plan at this time is older than the log</div>';
    else if (!at.names.length) h += '<div class="muted">no plan</div>';
    else {
      if (p.goal && st.scrub === null) h += `<div class="muted">goal ${esc(p.goal)}</div>`;
      h += '<ol class="steps">' + at.names.map((n, i) => {
        const s = i < at.step ? "done" : i === at.step ? (at.started ? "running" : "next") : "pending";
        return `<li class="step" data-status="${s}"${i === at.step ? ' data-current="1"' : ""}><span class="name">${esc(n)}</span><span class="st">${s}</span></li>`;
      }).join("") + "</ol>";
      // HTN: the method chosen for each compound task (the live plan's only: the log keeps steps, not methods)
      if (p.methods && p.methods.length && st.scrub === null) {
        h += '<div class="methods"><div class="muted">methods chosen (the first, in order, that applied)</div>' + p.methods.map((m) => {
          const why = m.passedOver && m.passedOver.length ? ` <span class="muted">(method ${m.index + 1}: ${m.passedOver.map(esc).join(", ")}, tried first, did not apply)</span>` : ` <span class="muted">(its first method)</span>`;
          return `<div class="method" style="margin-left:${m.depth * 14}px">${esc(m.task)} → <b>${esc(m.method)}</b>${why}</div>`;
        }).join("") + "</div>";
      } else if (p.methods && p.methods.length) h += '<div class="muted">methods: shown live only</div>';
    }
    h += `<table>${row("think", esc(p.status))}${row("plans", `${p.plans} (${p.replaced} replaced), ${p.failures} failures`)}`;
    if (p.facts && p.facts.length) h += row("believes", p.facts.map((f) => `${esc(f.name)}=${f.value}`).join(", "));
    if (p.squad) {
      const q = p.squad;
      h += row("squad", `entity ${q.entity}${q.alive ? "" : " (removed)"}, slot ${q.slot}: ` + (q.members || []).map((m) =>
        `<span class="${m.id === a.id ? "me" : "mate"}" data-id="${m.id}">${m.id}${m.step ? " (" + esc(m.step) + ")" : ""}</span>`).join(", "));
    }
    el.innerHTML = h + "</table>";
  }
  // statusesAt undoes, from the last statuses, the transitions after time t (the log
  // records the changes of each node's last status); live (t null), the latest tick's.
  function statusesAt(t) {
    const a = st.snap.selected;
    if (t === null) return a.tree.status.slice();
    const s = (a.tree.lastStatus || a.tree.status).slice();
    const log = a.log || [];
    for (let i = log.length - 1; i >= 0 && log[i].t > t; i--) s[log[i].node] = log[i].from;
    return s;
  }
  function renderTree() {
    const a = st.snap && st.snap.selected, el = $("tree");
    if (!a || !a.alive || !a.tree) { el.innerHTML = '<span class="muted">no behavior tree</span>'; st.treeKey = ""; $("tree-name").textContent = ""; return; }
    const t = a.tree, key = a.id + ":" + t.name + ":" + t.nodes.length;
    if (key !== st.treeKey) {
      st.treeKey = key;
      $("tree-name").textContent = t.name;
      const depth = t.nodes.map(() => 0);
      el.innerHTML = t.nodes.map((n, i) => {
        depth[i] = n.parent >= 0 ? depth[n.parent] + 1 : 0;
        return `<div class="node" id="node-${i}" data-status="Idle" style="margin-left:${depth[i] * 14}px"><span class="name">${esc(n.name)}</span>` +
          kindLabel(n) + `<span class="st">Idle</span></div>`;
      }).join("");
    }
    const s = statusesAt(st.scrub);
    for (let i = 0; i < s.length; i++) {
      const node = el.children[i], name = STATUS[s[i]] || "Status(" + s[i] + ")", note = staleNote(t.nodes[i], st.scrub === null);
      if (node.dataset.status !== name || (node.dataset.note || "") !== note) {
        node.dataset.status = name; node.dataset.note = note;
        node.lastChild.textContent = note ? `${name} (${note})` : name;
        node.title = note ? `not ticked in its parent's current run: ${note} (from a run that is over)` : "";
        if (note) node.dataset.stale = "1"; else delete node.dataset.stale;
      }
    }
  }
  // baseline returns the text of a tree log's "selected" entry: the nodes not Idle
  // at the selection, with their statuses.
  function baseline(t, x) {
    const on = (x.status || []).map((s, i) => s ? `${esc(t.nodes[i] ? t.nodes[i].name : "?")} ${STATUS[s] || s}` : "").filter((s) => s);
    return on.length ? on.join(", ") : "all Idle";
  }
  function renderLog() {
    const { log, t0, t1 } = logWindow(), a = st.snap && st.snap.selected;
    const label = st.scrub === null ? "live" : `t = ${st.scrub.toFixed(2)} s`;
    $("scrub-label").textContent = label;
    if (st.scrub === null) $("scrub").value = 1000;
    else $("scrub").value = t1 > t0 ? Math.round(1000 * (st.scrub - t0) / (t1 - t0)) : 1000;
    if (!a || (!a.tree && !a.planner && !a.fsm && !a.utility && !(a.selectors && a.selectors.length))) { $("log").innerHTML = ""; return; }
    // the tree's, the state machine's (and its trees'), the utility choice's and the
    // plan's transitions, merged by time (in that order at equal times)
    const all = [];
    if (a.tree) for (const x of log) all.push({ t: x.t, text: x.kind === "selected" ? `tree ${esc(a.tree.name)} ${baseline(a.tree, x)}` : `[${x.node}] ${esc(a.tree.nodes[x.node] ? a.tree.nodes[x.node].name : "?")}: ${STATUS[x.from]} → ${STATUS[x.to]}` });
    const more = [];
    if (a.fsm) {
      for (const x of a.fsmLog || []) {
        const to = (x.to || []).map(esc).join(" › ") || "none";
        const text = x.kind === "selected" ? `state ${to}` : `state ${(x.from || []).map(esc).join(" › ") || "none"} → ${to}${x.count > 1 ? ` (${x.count} transitions; left ${esc(x.previous)} last)` : ""}`;
        more.push({ t: x.t, text, cls: "fsm" });
      }
      for (const tr of a.fsm.trees || []) for (const x of tr.log || []) {
        const n = tr.tree.nodes[x.node];
        more.push({ t: x.t, text: x.kind === "selected" ? `${esc(tr.tree.name)} ${baseline(tr.tree, x)}` : `${esc(tr.tree.name)} [${x.node}] ${esc(n ? n.name : "?")}: ${STATUS[x.from]} → ${STATUS[x.to]}`, cls: "treelog" });
      }
    }
    for (const x of a.utilityLog || []) {
      const sc = x.choice >= 0 && x.scores ? ` (${num(x.scores[x.choice])})` : "";
      const who = x.field ? `utility ${esc(x.field)}` : "utility";
      more.push({ t: x.t, text: x.kind === "selected" ? `${who} ${esc(x.to)}${sc}` : `${who} ${esc(x.from)} → ${esc(x.to)}${sc}`, cls: "util" });
    }
    more.sort((p, q) => p.t - q.t); // stable: the order above at equal times
    for (let i = 0, j = 0; j < more.length; j++) {
      while (i < all.length && all[i].t <= more[j].t) i++;
      all.splice(i, 0, more[j]); i++;
    }
    const plog = (a.planner && a.planLog) || [];
    for (let i = 0, j = 0; j < plog.length; j++) {
      const x = plog[j];
      while (i < all.length && all[i].t <= x.t) i++;
      const showPlan = x.plan && (x.kind === "plan" || x.kind === "replan" || x.kind === "selected");
      const text = `plan ${x.kind}${x.task ? " " + esc(x.task) : ""}${showPlan ? ": " + x.plan.map(esc).join(" → ") : ""}`;
      all.splice(i, 0, { t: x.t, text, plan: true }); i++;
    }
    let last = -1;
    if (st.scrub !== null) for (let i = 0; i < all.length; i++) if (all[i].t <= st.scrub) last = i;
    $("log").innerHTML = all.slice(-300).map((x, k) => {
      const i = all.length - Math.min(300, all.length) + k;
      const cls = (st.scrub === null ? "" : i === last ? "at" : x.t > st.scrub ? "future" : "") + (x.plan ? " plan" : "") + (x.cls ? " " + x.cls : "");
      return `<div class="${cls}" data-t="${x.t}">t=${x.t.toFixed(3)} ${x.text}</div>`;
    }).join("");
  }
  $("log").onclick = (e) => {
    const t = e.target.dataset && e.target.dataset.t;
    if (t !== undefined) { st.scrub = Math.max(parseFloat(t), logWindow().t0); renderScrubbed(); }
  };
  function pushHistory(systems) {
    st.sysNames = systems.map((s) => s.name);
    st.history.push(systems.map((s) => s.ms));
    if (st.history.length > 150) st.history.shift();
  }
  function renderSystems() {
    const c = $("chart"), g = c.getContext("2d"), H = st.history, names = st.sysNames;
    g.clearRect(0, 0, c.width, c.height);
    if (!names.length) { $("systems").innerHTML = '<tr><td class="muted">no timer: set Viewer.Times to the ecs.Scheduler, or under arche-model to an ecs.Timings that wraps each system (m.AddSystem(tm.Time(sys)))</td></tr>'; return; }
    let max = 0.01;
    for (const h of H) max = Math.max(max, h.reduce((x, y) => x + y, 0));
    const w = c.width / 150;
    for (let j = 0; j < H.length; j++) {
      let y = c.height;
      for (let i = 0; i < H[j].length; i++) {
        const hh = H[j][i] / max * (c.height - 12);
        g.fillStyle = SYS_COLOURS[i % SYS_COLOURS.length]; g.fillRect(j * w, y - hh, Math.ceil(w), hh); y -= hh;
      }
    }
    g.fillStyle = "#333"; g.font = "11px sans-serif"; g.fillText(max.toFixed(2) + " ms", 2, 10);
    const last = H[H.length - 1] || [];
    $("systems").innerHTML = names.map((n, i) => row(n, `<span class="sw" style="display:inline-block;width:10px;height:10px;background:${SYS_COLOURS[i % SYS_COLOURS.length]}"></span> ${(last[i] || 0).toFixed(3)} ms`)).join("");
  }
  function renderDiagnostics() {
    const d = st.snap.diagnostics || [], bad = d.filter((c) => c.count > 0);
    $("diagnostics").innerHTML = bad.length ? "<table>" + bad.map((c) => row(c.cause, `${c.count} (e.g. entity ${c.example})`)).join("") + `</table><div class="muted">checked at frame ${st.snap.diagFrame}</div>`
      : `<span class="muted">no misconfigured agent (checked at frame ${st.snap.diagFrame}, ${d.length} causes)</span>`;
  }

  window.addEventListener("resize", () => { resize(); });
  resize(); drawLegend(); connect(); requestAnimationFrame(draw);
})();
