/* drawcheck: makes the class overview's table sortable, searchable and filterable.
 * Progressive enhancement: without this script the table is a plain table, sorted by learner.
 * Loads the pinned simple-datatables (served from the site's own assets) only on pages that have
 * a `[data-dc-sortable] table`; every other page pays for this small file only. */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script ? script.src.replace(/javascripts\/drawcheck-overview\.js(\?.*)?$/, "") : "";
  var STATUS_COLUMN = 1, KINDS_COLUMN = 2;

  function load(src, done) {
    var tag = document.createElement("script");
    tag.src = src;
    tag.onload = done;
    document.head.appendChild(tag);
  }

  function stylesheet(href) {
    var link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.appendChild(link);
  }

  /* The text of a simple-datatables cell (plain, or a tree of nodes for HTML cells). */
  function textOf(cell) {
    if (cell == null) return "";
    if (typeof cell.text === "string") return cell.text;
    if (typeof cell.data === "string") return cell.data;
    if (Array.isArray(cell.data)) return cell.data.map(textOf).join("");
    if (Array.isArray(cell.childNodes)) return cell.childNodes.map(textOf).join("");
    return cell.data == null ? "" : String(cell.data);
  }

  function statusWord(text) {
    return text.replace(/^\S+\s+/, "").replace(/\s*\(.*$/, "").trim().toLowerCase();
  }

  function kindWord(text) {
    return text.replace(/:.*$/, "").trim().toLowerCase();
  }

  /* Filters match whole words (status "correct" is not "corrections"); the search box matches parts. */
  function searchMethod(terms, cell, row, column, source) {
    var text = textOf(cell);
    if (source === "status") return terms.indexOf(statusWord(text)) >= 0;
    if (source === "kind") return text.split("\u00b7").some(function (part) { return terms.indexOf(kindWord(part)) >= 0; });
    text = text.toLowerCase();
    return terms.some(function (term) { return text.indexOf(term) >= 0; });
  }

  function cellTexts(table, column) {
    return Array.prototype.map.call(table.tBodies[0].rows, function (row) {
      return row.cells[column] ? row.cells[column] : null;
    }).filter(Boolean);
  }

  /* Options for a <select>: the distinct words found in a column's spans of `selector`. */
  function choices(table, column, selector, strip) {
    var seen = [];
    cellTexts(table, column).forEach(function (cell) {
      Array.prototype.forEach.call(cell.querySelectorAll(selector), function (span) {
        var word = strip(span.textContent);
        if (word && seen.indexOf(word) < 0) seen.push(word);
      });
    });
    return seen.sort();
  }

  function select(id, label, all, values) {
    var wrap = document.createElement("label");
    wrap.className = "dc-filter";
    wrap.htmlFor = id;
    wrap.appendChild(document.createTextNode(label + " "));
    var box = document.createElement("select");
    box.id = id;
    [[all, ""]].concat(values.map(function (v) { return [v, v]; })).forEach(function (pair) {
      var option = document.createElement("option");
      option.textContent = pair[0];
      option.value = pair[1];
      box.appendChild(option);
    });
    wrap.appendChild(box);
    return { label: wrap, select: box };
  }

  function enhance(table, index) {
    var statuses = choices(table, STATUS_COLUMN, ".dc-status", statusWord);
    var kinds = choices(table, KINDS_COLUMN, ".dc-kind", kindWord);
    var dt = new window.simpleDatatables.DataTable(table, {
      paging: false,
      searchable: true,
      sortable: true,
      searchMethod: searchMethod,
      // cells sort as text with numeric collation: "9 %" < "81 %" < "100 %", "—" (not graded) first
      numeric: true,
      labels: {
        placeholder: "learner, step, status…",
        searchLabel: "Search the table",
        searchTitle: "Search the table",
        noResults: "No submission matches the search and filters",
        sortHint: "Activate to sort",
      },
    });
    var status = select("dc-filter-status-" + index, "Status", "any status", statuses);
    var kind = select("dc-filter-kind-" + index, "Correction", "any correction", kinds);
    var bar = document.createElement("div");
    bar.className = "dc-filters";
    bar.appendChild(status.label);
    bar.appendChild(kind.label);
    var count = document.createElement("p");
    count.className = "dc-filter-count";
    count.setAttribute("role", "status");
    var top = dt.wrapperDOM.querySelector(".datatable-top") || dt.wrapperDOM;
    top.appendChild(bar);
    dt.wrapperDOM.insertBefore(count, top.nextSibling);

    function shown() {
      var rows = dt.wrapperDOM.querySelectorAll("tbody tr:not(.datatable-empty)").length;
      count.textContent = rows + " of " + dt.data.data.length + " submissions shown";
    }
    function filter(box, column, source) {
      box.addEventListener("change", function () {
        dt.multiSearch(box.value ? [{ terms: [box.value], columns: [column] }] : [], source);
        shown();
      });
    }
    filter(status.select, STATUS_COLUMN, "status");
    filter(kind.select, KINDS_COLUMN, "kind");
    dt.on("datatable.search", shown);
    dt.on("datatable.sort", shown);
    shown();
    table.setAttribute("data-dc-enhanced", "");
  }

  function start() {
    var tables = document.querySelectorAll("[data-dc-sortable] table");
    if (!tables.length) return;
    stylesheet(base + "vendor/simple-datatables/simple-datatables.css");
    load(base + "vendor/simple-datatables/simple-datatables.js", function () {
      Array.prototype.forEach.call(tables, enhance);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
