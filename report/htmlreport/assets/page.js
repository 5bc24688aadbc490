// Draws the fronts, the table of non-dominated candidates and the selected
// candidate's details from the JSON document embedded in the page.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var D = JSON.parse(document.getElementById("fp-data").textContent);
  var W = 460, H = 300, M = { l: 58, r: 12, t: 22, b: 40 };
  var state = { scale: "linear", zoom: {}, selected: -1, sortKey: "risk", sortDesc: false, fit: true, hidden: {} };
  var nCollapsed = D.candidates.filter(function (c) { return c.collapsed; }).length;
  // Constant predictors sit far from the others and squash them into a
  // corner: by default the axes fit the other candidates.
  var canFit = nCollapsed > 0 && nCollapsed < D.candidates.length;
  var byId = {}; // candidate id → its circles
  D.candidates.forEach(function (c) { byId[c.id] = []; });

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // fmt writes v with d significant digits (default 4).
  function fmt(v, d) {
    if (v === null || v === undefined) return "–";
    if (v === 0) return "0";
    d = d || 4;
    var a = Math.abs(v);
    if (a >= 1e-4 && a < 1e6) return String(Number(v.toPrecision(d)));
    return v.toExponential(Math.max(d - 1, 1));
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch];
    });
  }
  function lambdaText(c) { return (c.sym || "λ") + " = " + fmt(c.lambda, 6); }
  // Each family of methods has its marker, each run its colour; a circle
  // for the penalty sweeps. familyNames name them in the keys.
  var familyNames = { penalty: "penalty sweep", adversarial: "adversarial", reductions: "reductions", thresholds: "group thresholds" };
  function markerPath(fam, x, y, r) {
    var s;
    switch (fam) {
      case "adversarial": s = r * 1.3; return "M" + x + "," + (y - s) + "l" + s + "," + s + "l" + -s + "," + s + "l" + -s + "," + -s + "Z";
      case "reductions": s = r * 0.9; return "M" + (x - s) + "," + (y - s) + "h" + 2 * s + "v" + 2 * s + "h" + -2 * s + "Z";
      case "thresholds": s = r * 1.35; return "M" + x + "," + (y - s) + "L" + (x + s * 0.866) + "," + (y + s / 2) + "L" + (x - s * 0.866) + "," + (y + s / 2) + "Z";
    }
    return null; // a circle
  }
  // marker draws the point of candidate c at (x, y), of radius r, in
  // parent: its family's shape in its run's colour, framed by a square
  // when it uses the sensitive attribute at prediction time (a square, not
  // a ring: rings already mark single-class networks and the pick).
  function marker(c, x, y, r, attrs, parent) {
    var d = markerPath(D.groups[c.g].family, x, y, r);
    var e = d ? el("path", { d: d }, parent) : el("circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: r }, parent);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (c.uses_a) {
      var h = r + 2.6;
      el("rect", { x: (x - h).toFixed(2), y: (y - h).toFixed(2), width: (2 * h).toFixed(2), height: (2 * h).toFixed(2), "class": "ua-ring" }, parent);
    }
    return e;
  }
  // keySVG is a family's marker in a colour, for a key.
  function keySVG(fam, color, usesA) {
    var w = usesA ? 18 : 14, c = w / 2, d = markerPath(fam, c, c, usesA ? 3.6 : 4.5);
    var fill = ' fill="' + esc(color) + '"';
    return '<svg width="' + w + '" height="' + w + '" class="mk-key">' + (d ? '<path d="' + d + '"' + fill + "></path>" : '<circle cx="7" cy="7" r="4.5"' + fill + "></circle>") +
      (usesA ? '<rect x="' + (c - 6.2) + '" y="' + (c - 6.2) + '" width="12.4" height="12.4" class="ua-ring"></rect>' : "") + "</svg>";
  }
  function metricIndex(m) { return D.metrics.indexOf(m); }

  // Nice linear ticks over [lo, hi].
  function linTicks(lo, hi, n) {
    var span = hi - lo, step = Math.pow(10, Math.floor(Math.log10(span / n)));
    var err = span / n / step;
    if (err >= 7.5) step *= 10; else if (err >= 3.5) step *= 5; else if (err >= 1.5) step *= 2;
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }
  // tickLabel writes a linear tick with the fewest decimals that tell the
  // ticks apart exactly.
  function tickLabel(v, ticks) {
    var step = ticks.length > 1 ? ticks[1] - ticks[0] : 0;
    if (!(step > 0) || step < 1e-4) return fmt(v, 3);
    for (var d = 0; d < 8; d++) {
      if (ticks.every(function (t) { return Math.abs(Number(t.toFixed(d)) - t) < step * 1e-6; })) break;
    }
    return String(Number(v.toFixed(d)));
  }
  // Powers of ten over [lo, hi], and multiples of them over narrower ranges.
  function logTicks(lo, hi) {
    var dec = Math.log10(hi / lo);
    var mult = dec < 1.2 ? [1, 2, 3, 4, 5, 6, 7, 8, 9] : dec < 3 ? [1, 2, 5] : [1];
    var out = [];
    for (var e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      mult.forEach(function (k) {
        var v = k * Math.pow(10, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(v);
      });
    }
    if (out.length < 2) return linTicks(lo, hi, 3).filter(function (v) { return v > 0; });
    return out;
  }

  // The x (risk) range of a metric's panel: every candidate, padded.
  function pad(lo, hi) {
    if (!(hi > lo)) { var d = Math.abs(lo) * 0.05 || 0.01; return [lo - d, hi + d]; }
    var p = (hi - lo) * 0.04;
    return [lo - p, hi + p];
  }

  // Each dataset has panels of its own: candidates of different datasets
  // are never drawn in one panel.
  function drawPanel(svg) {
    var metric = svg.getAttribute("data-metric"), mi = metricIndex(metric);
    var di = +(svg.getAttribute("data-dataset") || 0), zk = svg.id;
    // The x axis: the test risk, or in the panels of the decision metrics
    // the test error, where every family competes.
    var onError = svg.getAttribute("data-axis") === "error";
    var X = onError ? function (c) { return 1 - c.acc; } : function (c) { return c.risk; };
    var ndKey = onError ? "nde" : "nd";
    function isND(c) { return c[ndKey] && c[ndKey].indexOf(mi) >= 0; }
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    // Group-thresholds candidates have no point in a (risk, ·) plane: their
    // probability is their base network's (the legend says so).
    var cs = D.candidates.filter(function (c) { return !state.hidden[c.g] && c.d === di && (onError || !c.base_p); });
    if (!cs.length) {
      el("text", { x: W / 2, y: H / 2, "text-anchor": "middle", "class": "title" }, svg).textContent =
        !D.candidates.some(function (c) { return c.d === di; }) ? "No candidate trained successfully." :
        D.candidates.some(function (c) { return c.d === di && (onError || !c.base_p); }) ? "Every method is hidden: click one in the legend." :
        "None against the risk: see the error panels below.";
      svg.onpointerdown = svg.onpointermove = svg.onpointerup = svg.onpointerleave = svg.ondblclick = null;
      return;
    }
    var fitted = state.fit && canFit ? cs.filter(function (c) { return !c.collapsed; }) : cs;
    var xs = fitted.map(X), ys = fitted.map(function (c) { return c.m[mi]; });
    var xr = pad(Math.min.apply(null, xs), Math.max.apply(null, xs));
    var log = state.scale === "log";
    var floor = 0;
    if (log) {
      var pos = ys.filter(function (v) { return v > 0; });
      floor = pos.length ? Math.min.apply(null, pos) / 2 : 1e-6;
    }
    var yv = function (v) { return log ? Math.max(v, floor) : v; };
    if (log) ys = ys.map(yv);
    var yr = state.zoom[zk];
    if (!yr) {
      var lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
      if (log) yr = [lo / 1.3, hi * 1.3]; else yr = pad(lo, hi);
      if (!log && yr[0] < 0 && lo >= 0) yr[0] = Math.min(0, lo - (hi - lo) * 0.04);
    } else if (log) {
      yr = [Math.max(yr[0], floor / 1.3), Math.max(yr[1], floor)];
    }
    var px = function (x) { return M.l + (x - xr[0]) / (xr[1] - xr[0]) * (W - M.l - M.r); };
    var py = log
      ? function (y) { return H - M.b - (Math.log(yv(y)) - Math.log(yr[0])) / (Math.log(yr[1]) - Math.log(yr[0])) * (H - M.t - M.b); }
      : function (y) { return H - M.b - (y - yr[0]) / (yr[1] - yr[0]) * (H - M.t - M.b); };
    var clipId = "clip-" + zk;
    var defs = el("defs", {}, svg);
    el("rect", { x: M.l, y: M.t, width: W - M.l - M.r, height: H - M.t - M.b }, el("clipPath", { id: clipId }, defs));

    // Axes and grid.
    var xt = linTicks(xr[0], xr[1], 5);
    xt.forEach(function (v) {
      var x = px(v);
      el("line", { x1: x, x2: x, y1: M.t, y2: H - M.b, "class": "grid" }, svg);
      el("text", { x: x, y: H - M.b + 14, "text-anchor": "middle" }, svg).textContent = tickLabel(v, xt);
    });
    var yt = log ? logTicks(yr[0], yr[1]) : linTicks(yr[0], yr[1], 5);
    // Where log ticks crowd, label only 1, 2 and 5 times a power of ten;
    // labels stay at least 13 px apart.
    var crowded = log && yt.some(function (v, i) { return i > 0 && py(yt[i - 1]) - py(v) < 16; });
    var lastY = Infinity;
    yt.forEach(function (v) {
      var y = py(v);
      el("line", { x1: M.l, x2: W - M.r, y1: y, y2: y, "class": "grid" }, svg);
      var mant = Math.round(v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9)));
      if (lastY - y < 13 || (crowded && [1, 2, 5].indexOf(mant) < 0)) return;
      lastY = y;
      el("text", { x: M.l - 5, y: y + 4, "text-anchor": "end" }, svg).textContent = log ? fmt(v, 3) : tickLabel(v, yt);
    });
    el("line", { x1: M.l, x2: W - M.r, y1: H - M.b, y2: H - M.b, "class": "axis" }, svg);
    el("line", { x1: M.l, x2: M.l, y1: M.t, y2: H - M.b, "class": "axis" }, svg);
    el("text", { x: (M.l + W - M.r) / 2, y: H - 6, "text-anchor": "middle" }, svg).textContent = onError ? "test error (1 − accuracy)" : "test risk (cross-entropy)";
    var yl = el("text", { x: 0, y: 0, "text-anchor": "middle", transform: "translate(13," + (M.t + H - M.b) / 2 + ") rotate(-90)" }, svg);
    yl.textContent = D.metric_names[metric] + (log ? " (log scale)" : "");
    var title = el("text", { x: M.l, y: 15, "class": "title" }, svg);
    title.textContent = (D.datasets.length > 1 ? D.datasets[di] + ": " : "") + D.metric_names[metric] + (onError ? " against test error" : " against test risk");
    var offs = cs.filter(function (c) {
      var x = px(X(c)), y = py(c.m[mi]);
      return x < M.l - 1 || x > W - M.r + 1 || y < M.t - 1 || y > H - M.b + 1;
    });
    var off = offs.length, offConst = offs.filter(function (c) { return c.collapsed; }).length;
    var notes = [];
    if (state.zoom[zk]) notes.push("zoomed · double-click to reset");
    if (log && cs.some(function (c) { return c.m[mi] <= 0 && py(c.m[mi]) <= H - M.b + 1; })) notes.push("0 drawn at " + fmt(floor, 2));
    if (off) notes.push(off + (offConst === off ? " constant predictor" + (off > 1 ? "s" : "") : "") + " off the axes");
    // The ATO of a split of poor overlap rests on few rows: say so where
    // it is read, as the banner at the top does.
    if (metric === "ato" && cs.some(function (c) { return c.poor_overlap; })) notes.push("poor overlap: read with caution");
    if (notes.length) el("text", { x: W - M.r, y: 15, "text-anchor": "end", "class": "note" }, svg).textContent = notes.join(" · ");

    var plot = el("g", { "clip-path": "url(#" + clipId + ")" }, svg);
    var hit = el("rect", { x: M.l, y: M.t, width: W - M.l - M.r, height: H - M.t - M.b, "class": "hit" }, plot);

    // Each method's own front: a staircase in its colour, under the
    // panel's front, so that the families can be compared plane by plane.
    // Against the risk, a thin one on the test metrics shown; against the
    // error, the front fp compare --axis error measures for the method
    // (owne, decided as the page decides), drawn bolder: there every
    // family competes.
    var byGroup = {};
    cs.forEach(function (c) { (byGroup[c.g] = byGroup[c.g] || []).push(c); });
    Object.keys(byGroup).forEach(function (g) {
      var pts = byGroup[g].slice().sort(function (a, b) { return X(a) - X(b) || a.m[mi] - b.m[mi]; });
      var own = [], best = Infinity;
      if (onError) own = pts.filter(function (c) { return c.owne && c.owne.indexOf(mi) >= 0; });
      else pts.forEach(function (c) { if (c.m[mi] < best) { own.push(c); best = c.m[mi]; } });
      if (own.length < 2) return;
      var od = "M" + px(X(own[0])) + "," + py(own[0].m[mi]);
      for (var k = 1; k < own.length; k++) od += "H" + px(X(own[k])) + "V" + py(own[k].m[mi]);
      el("path", { d: od, "class": "stair-own" + (onError ? " family" : ""), stroke: D.groups[g].color, "data-g": g }, plot);
    });

    // The non-dominated staircase of the panel's dataset.
    var f = cs.filter(isND).sort(function (a, b) { return X(a) - X(b) || b.m[mi] - a.m[mi]; });
    if (f.length) {
      var sd = "M" + px(X(f[0])) + "," + py(f[0].m[mi]);
      for (var k = 1; k < f.length; k++) sd += "H" + px(X(f[k])) + "V" + py(f[k].m[mi]);
      el("path", { d: sd, "class": "stair" }, plot);
    }

    // The 95% intervals of the front's candidates as error bars in both
    // axes, under the points; an interval crossing 0 on the log scale is
    // drawn down to the floor.
    f.forEach(function (c) {
      if (!c.ci) return;
      var cx = px(X(c)), cy = py(c.m[mi]), col = D.groups[c.g].color, cap = 2.5;
      var g = el("g", { "class": "ci", stroke: col, "data-id": c.id }, plot);
      // The error's interval is the accuracy's, turned over.
      var xiv = onError ? (c.ci.acc && [1 - c.ci.acc[1], 1 - c.ci.acc[0]]) : c.ci.risk;
      if (xiv) {
        var x0 = px(xiv[0]), x1 = px(xiv[1]);
        el("line", { x1: x0, x2: x1, y1: cy, y2: cy, "class": "ci-x" }, g);
        el("line", { x1: x0, x2: x0, y1: cy - cap, y2: cy + cap }, g);
        el("line", { x1: x1, x2: x1, y1: cy - cap, y2: cy + cap }, g);
      }
      var iv = c.ci.m[mi];
      if (iv) {
        var y0 = py(iv[0]), y1 = py(iv[1]);
        el("line", { x1: cx, x2: cx, y1: y0, y2: y1, "class": "ci-y" }, g);
        el("line", { x1: cx - cap, x2: cx + cap, y1: y0, y2: y0 }, g);
        el("line", { x1: cx - cap, x2: cx + cap, y1: y1, y2: y1 }, g);
      }
    });

    // Every candidate; those on the front last, so they sit on top.
    var order = cs.slice().sort(function (a, b) { return (isND(a) ? 1 : 0) - (isND(b) ? 1 : 0); });
    order.forEach(function (c) {
      var nd = isND(c);
      var cl = "pt" + (nd ? " nd" : "") + (c.collapsed ? " collapsed" : "") + (c.single_class ? " single" : "") + (c.no_better ? " nobetter" : "") + (c.id === state.selected ? " selected" : "");
      var r = nd ? 4.5 : 3.2;
      // A network predicting one class is drawn as a ring in its method's
      // colour: no real choice, whatever its unfairness.
      var e = marker(c, px(X(c)), py(c.m[mi]), r, { "data-r": r, fill: c.single_class ? "#fff" : D.groups[c.g].color, "class": cl, "data-id": c.id }, plot);
      if (c.id === state.selected && e.tagName === "circle") e.setAttribute("r", 7);
      if (c.single_class) e.style.stroke = D.groups[c.g].color;
      byId[c.id].push(e);
    });
    // The network fp pick returns from this front: a ring and a star, on
    // top of every point (fp pick picks from the fronts against the risk).
    cs.forEach(function (c) {
      if (onError || !c.pick || c.pick.indexOf(mi) < 0) return;
      var x = px(c.risk), y = py(c.m[mi]);
      el("circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: 9, "class": "pick-ring" }, plot);
      // Below the point where above would leave the plot.
      var sy = y - 11 < M.t + 10 ? y + 20 : y - 11;
      el("text", { x: x.toFixed(2), y: sy.toFixed(2), "text-anchor": "middle", "class": "pick" }, plot).textContent = "★";
    });

    // Drag vertically to zoom the unfairness axis.
    var brush = null, y0 = 0;
    function svgY(ev) {
      var r = svg.getBoundingClientRect();
      return (ev.clientY - r.top) * H / r.height;
    }
    function inv(y) {
      var t = (H - M.b - y) / (H - M.t - M.b);
      return log ? Math.exp(Math.log(yr[0]) + t * (Math.log(yr[1]) - Math.log(yr[0]))) : yr[0] + t * (yr[1] - yr[0]);
    }
    svg.onpointerdown = function (ev) {
      if (ev.button !== 0) return;
      y0 = Math.min(Math.max(svgY(ev), M.t), H - M.b);
      brush = el("rect", { x: M.l, y: y0, width: W - M.l - M.r, height: 0, "class": "brush" }, svg);
    };
    svg.onpointermove = function (ev) {
      if (!brush) return;
      var y = Math.min(Math.max(svgY(ev), M.t), H - M.b);
      brush.setAttribute("y", Math.min(y, y0));
      brush.setAttribute("height", Math.abs(y - y0));
    };
    svg.onpointerup = svg.onpointerleave = function (ev) {
      if (!brush) return;
      var y = Math.min(Math.max(svgY(ev), M.t), H - M.b);
      svg.removeChild(brush);
      brush = null;
      if (Math.abs(y - y0) < 6) return; // a click, not a drag
      state.zoom[zk] = [inv(Math.max(y, y0)), inv(Math.min(y, y0))];
      redraw();
    };
    svg.ondblclick = function () { delete state.zoom[zk]; redraw(); };
    void hit;
  }

  function drawLegend() {
    var lg = document.getElementById("legend"), h = "";
    D.groups.forEach(function (g, i) {
      h += '<button type="button" class="lg' + (state.hidden[i] ? " off" : "") + '" data-g="' + i + '" title="show or hide this method">' +
        (markerPath(g.family, 0, 0, 1) ? keySVG(g.family, g.color) : '<span class="key" style="background:' + esc(g.color) + '"></span>') + esc(g.label) + "</button>";
    });
    h += '<span><span class="front-key"></span>' + (D.decided_on === "selection" ?
      "non-dominated on the selection rows (outlined points), drawn at their test metrics" :
      "non-dominated staircase (outlined points)") + "</span>";
    if (D.groups.length > 1) h += '<span>thin lines: each method\'s own front, on the test metrics shown</span>';
    if (D.candidates.some(function (c) { return c.single_class; })) h += '<span><svg width="12" height="12" class="ring-key"><circle cx="6" cy="6" r="4.2"></circle></svg>rings: predict one class for every test row</span>';
    if (D.candidates.some(function (c) { return c.no_better; })) h += '<span><svg width="12" height="12" class="dash-key"><circle cx="6" cy="6" r="4.2"></circle></svg>dashed outline: no better than the constant predictor</span>';
    if (nCollapsed) h += '<span class="muted">faint points: collapsed to a constant predictor</span>';
    var nBase = D.candidates.filter(function (c) { return c.base_p; }).length;
    var decision = document.querySelector('.panel svg[data-axis="error"]');
    if (nBase) h += '<span class="muted">not drawn against the risk: ' + nBase + ' group-thresholds candidates, which use the sensitive attribute at prediction time and whose probability is their base network\'s (docs/method.md §13.1); ' +
      (decision ? 'they are drawn against the test error, in <a href="#decision-panels">the panels of the decision metrics</a> below' : "fp compare --axis error compares their decisions") + "</span>";
    lg.innerHTML = h;
    // The key of the panels against the error: each family's marker, and
    // the mark of a candidate that uses the sensitive attribute.
    var fams = [], usesA = D.candidates.some(function (c) { return c.uses_a; });
    D.groups.forEach(function (g) { if (fams.indexOf(g.family) < 0) fams.push(g.family); });
    var k = fams.map(function (f) { return "<span>" + keySVG(f, "#777") + esc(familyNames[f] || f) + "</span>"; }).join("");
    k += '<span><span class="front-key"></span>non-dominated among every method (outlined points)</span>';
    k += '<span><span class="family-key"></span>each method\'s own front, in its colour' + (D.decided_on === "selection" ? " (chosen on the selection rows, drawn at their test metrics)" : "") + "</span>";
    if (usesA) k += "<span>" + keySVG("thresholds", "#777", true) + "<b>framed: uses the sensitive attribute at prediction time</b></span>";
    document.querySelectorAll(".decision-key").forEach(function (e) { e.innerHTML = k; });
  }

  // Tooltip on hover, selection on click (delegated to the panels).
  var tip = document.getElementById("tooltip");
  function candidateAt(ev) {
    var t = ev.target;
    if (!t || !t.classList || !t.classList.contains("pt")) return null;
    return D.candidates[+t.getAttribute("data-id")];
  }
  // ciOf is c's interval of "risk", "acc" or metric index k; null when
  // there is none.
  function ciOf(c, k) {
    if (!c.ci) return null;
    return (k === "risk" ? c.ci.risk : k === "acc" ? c.ci.acc : c.ci.m[k]) || null;
  }
  // ciText is c's interval of k as text, after the estimate it is built
  // around where that is not the recorded value (the unbiased dp, eo, eopp).
  function ciText(c, k) {
    var iv = ciOf(c, k);
    if (!iv) return "";
    var est = typeof k === "number" && c.ci.est && c.ci.est[k] !== null && c.ci.est[k] !== undefined ? "est " + fmt(c.ci.est[k], 3) + " " : "";
    return ' <span class="ci">' + est + "[" + fmt(iv[0], 3) + ", " + fmt(iv[1], 3) + "]</span>";
  }
  function tipText(c) {
    var s = "<b>" + esc(D.groups[c.g].label) + "</b> · split " + c.split + " · " + esc(lambdaText(c)) + "<br>risk " + fmt(c.risk) + ciText(c, "risk") + " · accuracy " + fmt(c.acc, 3) + ciText(c, "acc");
    D.metrics.forEach(function (m, i) { s += (i % 2 === 0 ? "<br>" : " · ") + D.metric_names[m] + " " + fmt(c.m[i]) + ciText(c, i); });
    if (c.uses_a) s += "<br><i>uses the sensitive attribute at prediction time</i>";
    if (c.collapsed) s += "<br><i>collapsed (constant predictor)</i>";
    else if (c.single_class) s += "<br><i>single class (predicts one class for every test row)</i>";
    if (c.no_better && !c.collapsed) s += "<br><i>no better than the constant predictor at the training base rate</i>";
    return s;
  }
  document.querySelectorAll(".panel svg").forEach(function (svg) {
    svg.addEventListener("mouseover", function (ev) {
      var c = candidateAt(ev);
      if (!c) return;
      tip.innerHTML = tipText(c);
      tip.hidden = false;
    });
    svg.addEventListener("mousemove", function (ev) {
      if (tip.hidden) return;
      var x = ev.clientX + 14, y = ev.clientY + 12;
      if (x + tip.offsetWidth > window.innerWidth - 4) x = ev.clientX - tip.offsetWidth - 10;
      if (y + tip.offsetHeight > window.innerHeight - 4) y = ev.clientY - tip.offsetHeight - 10;
      tip.style.left = x + "px";
      tip.style.top = y + "px";
    });
    svg.addEventListener("mouseout", function (ev) { if (candidateAt(ev)) tip.hidden = true; });
    svg.addEventListener("click", function (ev) {
      var c = candidateAt(ev);
      if (c) select(c.id);
    });
  });

  function histSVG(c) {
    var hw = 300, hh = 150, m = { l: 30, r: 6, t: 6, b: 30 };
    var colors = ["#0072B2", "#56B4E9", "#D55E00", "#E69F00"], dash = ["", "4 2", "", "4 2"];
    var top = 0;
    c.dist.forEach(function (h) { h.p.forEach(function (v) { top = Math.max(top, v); }); });
    top = top || 1;
    var s = '<svg viewBox="0 0 ' + hw + " " + hh + '" xmlns="' + NS + '">';
    var bx = function (b) { return m.l + b / D.bins * (hw - m.l - m.r); };
    var by = function (v) { return hh - m.b - v / top * (hh - m.t - m.b); };
    s += '<line class="axis" x1="' + m.l + '" x2="' + (hw - m.r) + '" y1="' + (hh - m.b) + '" y2="' + (hh - m.b) + '"/>';
    s += '<line class="axis" x1="' + m.l + '" x2="' + m.l + '" y1="' + m.t + '" y2="' + (hh - m.b) + '"/>';
    [0, 0.5, 1].forEach(function (v) { s += '<text x="' + bx(v * D.bins) + '" y="' + (hh - m.b + 12) + '" text-anchor="middle">' + v + "</text>"; });
    s += '<text x="' + m.l + '" y="' + (m.t + 8) + '" text-anchor="end" dx="-3">' + fmt(top, 2) + "</text>";
    s += '<text x="' + (m.l + hw - m.r) / 2 + '" y="' + (hh - 4) + '" text-anchor="middle">predicted probability (density)</text>';
    c.dist.forEach(function (h, k) {
      var d = "M" + bx(0) + "," + by(0);
      h.p.forEach(function (v, b) { d += "V" + by(v) + "H" + bx(b + 1); });
      d += "V" + by(0);
      s += '<path d="' + d + '" fill="none" stroke="' + colors[k] + '" stroke-width="1.6"' + (dash[k] ? ' stroke-dasharray="' + dash[k] + '"' : "") + "/>";
    });
    s += "</svg>";
    var keys = c.dist.map(function (h, k) {
      return '<span style="color:' + colors[k] + '">' + (dash[k] ? "╌╌" : "──") + "</span> y=" + h.y + ", a=" + h.a + " (n=" + h.n + ")";
    });
    return '<div class="hist">' + s + '<div class="muted">' + keys.join(" &nbsp; ") + "</div></div>";
  }

  function renderDetail(c) {
    var box = document.getElementById("detail");
    var na = '<span class="na">not available for this run</span>';
    var flag = function (v) { return v === undefined || v === null ? na : (v ? '<span class="tag bad">yes</span>' : "no"); };
    var h = '<h3 id="detail-title">' + esc(D.groups[c.g].label) + " · split " + c.split + ' · <span class="nw">' + esc(lambdaText(c)) + "</span></h3>";
    if (D.runs.length > 1) h += '<div class="muted">run <code>' + esc(D.runs[c.run]) + "</code></div>";
    h += '<table id="detail-metrics"><tbody>';
    h += '<tr><th>risk</th><td class="n" data-k="risk">' + fmt(c.risk, 5) + ciText(c, "risk") + '</td><th>accuracy</th><td class="n" data-k="acc">' + fmt(c.acc, 4) + ciText(c, "acc") + "</td></tr>";
    for (var i = 0; i < D.metrics.length; i += 2) {
      h += "<tr>";
      for (var j = i; j < i + 2 && j < D.metrics.length; j++) h += "<th>" + D.metric_names[D.metrics[j]] + '</th><td class="n" data-k="' + D.metrics[j] + '">' + fmt(c.m[j], 5) + ciText(c, j) + "</td>";
      h += "</tr>";
    }
    h += "</tbody></table>";
    if (c.pick) h += '<p><span class="star">★</span> <code>fp pick ' + esc(D.pick_flags) + "</code> returns it from the front of " + c.pick.map(function (k) { return D.metric_names[D.metrics[k]]; }).join(", ") + ".</p>";
    var names = function (ks) { return ks && ks.length ? ks.map(function (k) { return D.metric_names[D.metrics[k]]; }).join(", ") : "none"; };
    h += "<p>Non-dominated against the risk for: " + (c.base_p ? "none (its probability is its base network's)" : names(c.nd)) + "<br>";
    if (document.querySelector('.panel svg[data-axis="error"]')) h += "Non-dominated against the error for: " + names(c.nde) + "<br>";
    if (c.uses_a) h += '<span class="tag bad">uses the sensitive attribute at prediction time</span><br>';
    h += "Collapsed (constant predictor): " + flag(!!c.collapsed) + "<br>Single predicted class: " + flag(!!c.single_class) + "<br>No better than constant: " + flag(!!c.no_better) + "<br>Poor overlap: " + flag(c.poor_overlap) + "</p>";
    h += "<p><b>Network</b><br>" + (c.net ? "<code>" + esc(c.net) + "</code>" : na) + "</p>";
    h += "<p><b>Apply it to new data</b><br>" + (c.predict ? "<code>" + esc(c.predict) + "</code>" : na) + "</p>";
    h += "<p><b>Score distributions on the test split</b></p>" + (c.dist ? histSVG(c) : '<p class="na">' + esc(c.dist_note || "Not available for this run.") + "</p>");
    box.innerHTML = h;
  }

  function select(id) {
    if (state.selected >= 0) byId[state.selected].forEach(function (e) {
      e.classList.remove("selected");
      e.setAttribute("r", e.getAttribute("data-r"));
    });
    state.selected = id;
    byId[id].forEach(function (e) {
      e.classList.add("selected");
      e.setAttribute("r", 7);
      e.parentNode.appendChild(e); // on top
    });
    document.querySelectorAll("#nd-table tbody tr").forEach(function (tr) {
      tr.classList.toggle("selected", +tr.getAttribute("data-id") === id);
    });
    // The selected network's error bars stand out of the others'.
    document.querySelectorAll("svg g.ci").forEach(function (g) {
      g.classList.toggle("sel", +g.getAttribute("data-id") === id);
    });
    renderDetail(D.candidates[id]);
  }

  // The sortable table of non-dominated candidates of one metric.
  var cols = [
    { k: "method", t: "method", v: function (c) { return D.groups[c.g].label; } },
    { k: "split", t: "split", n: true, v: function (c) { return c.split; } },
    { k: "lambda", t: "λ / β", n: true, v: function (c) { return c.lambda; } },
    { k: "risk", t: "risk", n: true, ci: "risk", v: function (c) { return c.risk; } },
    { k: "acc", t: "accuracy", n: true, ci: "acc", v: function (c) { return c.acc; } }
  ];
  D.metrics.forEach(function (m, i) { cols.push({ k: m, t: D.metric_names[m], n: true, ci: i, v: function (c) { return c.m[i]; } }); });
  // Marks are joined by "; " so that each becomes its own tag.
  cols.push({ k: "flags", t: "marks", v: function (c) {
    return [c.uses_a && "uses the sensitive attribute", c.collapsed && "collapsed", c.single_class && "single class", c.no_better && "no better than constant", c.poor_overlap && "poor overlap"].filter(Boolean).join("; ");
  } });
  cols.push({ k: "net", t: "network", v: function (c) { return c.net || ""; } });
  if (D.runs.length > 1) cols.splice(1, 0, { k: "run", t: "run", v: function (c) { return D.runs[c.run]; } });
  // Each dataset's candidates stay together, under their dataset's name.
  if (D.datasets.length > 1) cols.unshift({ k: "dataset", t: "dataset", v: function (c) { return D.datasets[c.d]; } });

  function drawTable() {
    // A front against the risk ("dp"), or against the error ("error:dp-diff").
    var v = document.getElementById("nd-metric").value, onError = v.indexOf("error:") === 0;
    var mi = metricIndex(onError ? v.slice(6) : v), key = onError ? "nde" : "nd";
    var rows = D.candidates.filter(function (c) { return c[key] && c[key].indexOf(mi) >= 0; });
    var col = cols.filter(function (c) { return c.k === state.sortKey; })[0] || cols[0];
    rows.sort(function (a, b) {
      var x = col.v(a), y = col.v(b), r = x < y ? -1 : x > y ? 1 : a.id - b.id;
      if (a.d !== b.d && D.datasets.length > 1) return a.d - b.d;
      return state.sortDesc ? -r : r;
    });
    var h = "<thead><tr>";
    cols.forEach(function (c) {
      h += '<th data-k="' + c.k + '" class="' + (c.n ? "n" : "") + (c.k === state.sortKey ? " sorted" + (state.sortDesc ? " desc" : "") : "") + '">' + esc(c.t) + "</th>";
    });
    h += "</tr></thead><tbody>";
    rows.forEach(function (r) {
      h += '<tr data-id="' + r.id + '"' + (r.id === state.selected ? ' class="selected"' : "") + ">";
      cols.forEach(function (c) {
        var v = c.v(r);
        if (c.k === "flags") {
          v = v ? v.split("; ").map(function (m) { return '<span class="tag bad">' + esc(m) + "</span>"; }).join(" ") : "";
          if (!onError && r.pick && r.pick.indexOf(mi) >= 0) v = '<span class="tag pick">★ fp pick ' + esc(D.pick_flags) + "</span> " + v;
        }
        else if (c.k === "net" || c.k === "run") v = v ? "<code>" + esc(v) + "</code>" : "";
        else if (c.k === "lambda") v = fmt(v, 6);
        else if (c.n && c.k !== "split") v = fmt(v, 4) + (c.ci !== undefined ? ciText(r, c.ci) : "");
        else v = esc(v);
        h += '<td class="' + (c.n ? "n" : "") + '">' + v + "</td>";
      });
      h += "</tr>";
    });
    h += "</tbody>";
    var t = document.getElementById("nd-table");
    t.innerHTML = h;
  }
  document.getElementById("nd-table").addEventListener("click", function (ev) {
    var th = ev.target.closest("th");
    if (th) {
      var k = th.getAttribute("data-k");
      state.sortDesc = state.sortKey === k ? !state.sortDesc : false;
      state.sortKey = k;
      drawTable();
      return;
    }
    var tr = ev.target.closest("tbody tr");
    if (tr) select(+tr.getAttribute("data-id"));
  });
  document.getElementById("nd-metric").addEventListener("change", drawTable);

  function redraw() {
    D.candidates.forEach(function (c) { byId[c.id] = []; });
    document.querySelectorAll(".panel svg").forEach(drawPanel);
  }
  document.querySelectorAll('input[name="scale"]').forEach(function (r) {
    r.addEventListener("change", function () { state.scale = r.value; state.zoom = {}; redraw(); });
  });
  document.getElementById("reset-zoom").addEventListener("click", function () { state.zoom = {}; redraw(); });
  var fit = document.getElementById("fit");
  if (canFit) {
    fit.parentNode.hidden = false;
    fit.addEventListener("change", function () { state.fit = fit.checked; state.zoom = {}; redraw(); });
  }

  document.getElementById("legend").addEventListener("click", function (ev) {
    var b = ev.target.closest("button.lg");
    if (!b) return;
    var g = +b.getAttribute("data-g");
    state.hidden[g] = !state.hidden[g];
    drawLegend();
    redraw();
  });

  var t0 = performance.now();
  drawLegend();
  redraw();
  drawTable();
  // Open on the network fp pick returns from the first front it returns
  // one from (a requirement on dp_ratio marks that front only); without
  // one, on the first metric's front's candidate of lowest risk.
  var first;
  for (var mi = 0; mi < D.metrics.length && !first; mi++) {
    first = D.candidates.filter(function (c) { return c.pick && c.pick.indexOf(mi) >= 0; })[0];
  }
  first = first || D.candidates.filter(function (c) { return c.nd && c.nd.indexOf(0) >= 0; })
    .sort(function (a, b) { return a.risk - b.risk; })[0];
  if (first) select(first.id);
  var ms = performance.now() - t0;
  window.fpDrawMs = ms;
  document.getElementById("draw-time").textContent = D.candidates.length + " candidates drawn in " + ms.toFixed(0) + " ms.";
})();
