// Copies the pinned front-end libraries the site serves itself (no CDN) into docs/assets/vendor/.
// simple-datatables (LGPL-3.0, shipped unmodified with its licence): the class overview's sortable table.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
const COPIES = {
  "simple-datatables": {
    "dist/umd/simple-datatables.js": "simple-datatables.js",
    "dist/style.css": "simple-datatables.css",
    LICENSE: "LICENSE",
  },
};

for (const [name, files] of Object.entries(COPIES)) {
  const from = dirname(require.resolve(`${name}/package.json`));
  const to = join(root, "docs", "assets", "vendor", name);
  mkdirSync(to, { recursive: true });
  for (const [source, target] of Object.entries(files)) {
    copyFileSync(join(from, source), join(to, target));
  }
  console.log(`drawcheck: copied ${name} -> ${to}`);
}
