// Copies the pinned UMD build of Mermaid into docs/ so the site renders with no network.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
const source = join(dirname(require.resolve("mermaid/package.json")), "dist", "mermaid.min.js");
const target = join(root, "docs", "assets", "javascripts", "mermaid.min.js");
mkdirSync(dirname(target), { recursive: true });
copyFileSync(source, target);
console.log(`drawcheck: copied ${source} -> ${target}`);
