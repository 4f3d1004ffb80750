/* drawcheck: small accessibility fixes to the theme's own markup, on every page.
 * Material's search overlay is a role="dialog" with no accessible name; name it after its input. */
(function () {
  "use strict";
  function fix() {
    var dialogs = document.querySelectorAll('[role="dialog"]:not([aria-label]):not([aria-labelledby])');
    Array.prototype.forEach.call(dialogs, function (dialog) {
      if (dialog.classList.contains("md-search")) dialog.setAttribute("aria-label", "Search the site");
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fix);
  else fix();
})();
