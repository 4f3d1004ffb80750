/* drawcheck: runs right after the pinned Mermaid loads, before Material initialises it.
 * 1. securityLevel is always "strict", whatever a page or a diagram asks for.
 * 2. Material's theme paints every sequence `rect` one colour; drop that rule so the
 *    feedback colours (red: wrong, amber: missing, green: the true boundary) show.
 * 3. Drawings marked `%% drawcheck: readable` (the site's own feedback drawings) are never scaled
 *    below MIN_SCALE (16 px text -> 12.8 px); their frame scrolls instead. The zoom buttons beside
 *    them set --drawcheck-zoom (1: full size, 1.5) on the frame, which the drawing's size follows.
 * 4. In those drawings the site's mark notes are white cards with a border in the mark's colour.
 * 5. In those drawings each mark's rect is drawn on a patch of the page's own colour, so a learner's rect
 *    or box beneath it never tints it: a mark shows its colour (its meaning) wherever it sits. */
(function () {
  "use strict";
  var mermaid = window.mermaid;
  if (!mermaid || typeof mermaid.initialize !== "function") return;
  var MIN_SCALE = 0.8;
  var initialize = mermaid.initialize.bind(mermaid);
  var rectFill = /(^|\})\s*(?:rect)?\.rect\s*\{[^}]*\}/g;
  mermaid.initialize = function (config) {
    var safe = Object.assign({}, config || {});
    if (typeof safe.themeCSS === "string") safe.themeCSS = safe.themeCSS.replace(rectFill, "$1");
    safe.securityLevel = "strict";
    return initialize(safe);
  };
  var readable = /^\s*sequenceDiagram\s*\n\s*%% drawcheck: readable\s*$/m;
  function sized(svg) {
    return svg.replace(/(<svg\b[^>]*?style=")max-width:\s*([\d.]+)px;?/, function (all, head, width) {
      var w = parseFloat(width);
      return head + "min-width: max(" + (w * MIN_SCALE).toFixed(1) + "px, calc(" + w + "px * var(--drawcheck-zoom, 0)));" +
        " max-width: max(" + w + "px, calc(" + w + "px * var(--drawcheck-zoom, 0)));";
    });
  }
  // The site's marks start with a circled number, which learner text never carries (safety.unmark):
  // their notes get a white card with a border in the mark's colour, unlike the learner's yellow notes.
  var MARK = /^\s*[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf]\s*(\S)/;
  var BORDER = {"\u2717": "#c92a2a", "\u2194": "#2b8a3e", "+": "#b35c00"};
  // render/mermaid.py MARK_FILLS (tests/hostile/test_round_four_units.py checks they agree)
  var MARK_FILLS = ["rgba(220, 50, 47, 0.18)", "rgba(255, 170, 0, 0.22)", "rgba(46, 160, 67, 0.22)"];
  function grounded(doc) {
    var changed = false;
    Array.prototype.forEach.call(doc.querySelectorAll("rect.rect"), function (rect) {
      if (MARK_FILLS.indexOf(rect.getAttribute("fill")) < 0) return;
      var ground = rect.cloneNode(false);
      ground.removeAttribute("fill");
      ground.setAttribute("class", "drawcheck-mark-ground");
      ground.setAttribute("style", "fill:var(--md-default-bg-color, #ffffff);fill-opacity:1;stroke:none");
      rect.parentNode.insertBefore(ground, rect);
      changed = true;
    });
    return changed;
  }
  function marked(svg) {
    if (typeof DOMParser !== "function") return svg;
    var doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    if (doc.getElementsByTagName("parsererror").length) return svg;
    var changed = grounded(doc);
    Array.prototype.forEach.call(doc.querySelectorAll("text.noteText"), function (text) {
      var m = MARK.exec(text.textContent || "");
      var card = text.previousElementSibling;
      if (!m || !card || card.tagName.toLowerCase() !== "rect") return;
      card.setAttribute("style", "fill:#ffffff;stroke:" + (BORDER[m[1]] || "#c92a2a") + ";stroke-width:2px");
      text.setAttribute("style", (text.getAttribute("style") || "") + ";fill:#1a1a1a;font-weight:bold");
      changed = true;
    });
    return changed ? new XMLSerializer().serializeToString(doc.documentElement) : svg;
  }
  if (typeof mermaid.render === "function") {
    var render = mermaid.render.bind(mermaid);
    mermaid.render = function (id, text) {
      var out = render.apply(null, arguments);
      if (!readable.test(String(text))) return out;
      return Promise.resolve(out).then(function (result) {
        if (result && typeof result.svg === "string") result.svg = sized(marked(result.svg));
        return result;
      });
    };
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-drawcheck-zoom]");
    if (!button) return;
    var box = button.closest(".drawcheck-drawing");
    if (!box) return;
    var zoom = button.getAttribute("data-drawcheck-zoom");
    if (zoom === "fit") box.removeAttribute("data-zoom"); else box.setAttribute("data-zoom", zoom);
    box.querySelectorAll("[data-drawcheck-zoom]").forEach(function (b) {
      b.setAttribute("aria-pressed", b === button ? "true" : "false");
    });
  });
})();
