/* drawcheck: runs right after the pinned Mermaid loads, before Material initialises it.
 * 1. securityLevel is always "strict", whatever a page or a diagram asks for.
 * 2. Material's theme paints every sequence `rect` one colour; drop that rule so the
 *    feedback colours (red: wrong, amber: missing, green: the true boundary) show.
 * 3. Drawings marked `%% drawcheck: readable` (the site's own feedback drawings) are never scaled
 *    below MIN_SCALE (16 px text -> 12.8 px); their frame scrolls instead. The zoom buttons beside
 *    them set --drawcheck-zoom (1: full size, 1.5) on the frame, which the drawing's size follows. */
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
  if (typeof mermaid.render === "function") {
    var render = mermaid.render.bind(mermaid);
    mermaid.render = function (id, text) {
      var out = render.apply(null, arguments);
      if (!readable.test(String(text))) return out;
      return Promise.resolve(out).then(function (result) {
        if (result && typeof result.svg === "string") result.svg = sized(result.svg);
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
