/* drawcheck: runs right after the pinned Mermaid loads, before Material initialises it.
 * 1. securityLevel is always "strict", whatever a page or a diagram asks for.
 * 2. Material's theme paints every sequence `rect` one colour; drop that rule so the
 *    feedback colours (red: wrong, amber: missing, green: the true boundary) show. */
(function () {
  "use strict";
  var mermaid = window.mermaid;
  if (!mermaid || typeof mermaid.initialize !== "function") return;
  var initialize = mermaid.initialize.bind(mermaid);
  var rectFill = /(^|\})\s*(?:rect)?\.rect\s*\{[^}]*\}/g;
  mermaid.initialize = function (config) {
    var safe = Object.assign({}, config || {});
    if (typeof safe.themeCSS === "string") safe.themeCSS = safe.themeCSS.replace(rectFill, "$1");
    safe.securityLevel = "strict";
    return initialize(safe);
  };
})();
