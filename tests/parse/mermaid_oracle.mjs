// Differential-test oracle: runs Mermaid's own parser (the pinned node_modules/mermaid)
// on many files in ONE node process.
// Input (stdin): JSON array of file paths, or {"texts": ["...", ...]}.
// Output (stdout): one JSON object per input, per line:
//   {"file", "valid", "error", "type", "participants": [[id,label,kind]], "messages": [[from,to,text]],
//    "notes": [[from,to,text]]}
// Mermaid's entity stand-ins are turned back into `#...;` so values compare with what was written.
import { readFileSync } from 'node:fs';
import mermaid from './mermaid_in_node.mjs';

const ARROW_TYPES = new Set([0, 1, 3, 4, 5, 6, 24, 25, 33, 34, 41, 42, 43, 44, 45, 46, 47, 48,
  51, 52, 53, 54, 55, 56, 57, 58]);
const NOTE = 2;
const decode = (s) => (typeof s === 'string'
  ? s.replace(/\uFB02\u00B0\u00B0/g, '#').replace(/\uFB02\u00B0/g, '#').replace(/\u00B6\u00DF/g, ';')
  : s);

async function oracle(text) {
  try {
    await mermaid.parse(text);
  } catch (e) {
    return { valid: false, error: String(e && e.message ? e.message : e).slice(0, 500) };
  }
  try {
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    if (diagram.type !== 'sequence') {
      return { valid: false, error: `detected as ${diagram.type}`, type: diagram.type };
    }
    const db = diagram.db;
    const participants = [];
    for (const [id, actor] of db.getActors()) {
      participants.push([decode(id), decode(actor.description), String(actor.type)]);
    }
    const messages = [];
    const notes = [];
    for (const m of db.getMessages()) {
      if (ARROW_TYPES.has(m.type)) messages.push([decode(m.from), decode(m.to), decode(m.message)]);
      else if (m.type === NOTE) notes.push([decode(m.from), decode(m.to), decode(m.message)]);
    }
    return { valid: true, type: 'sequence', participants, messages, notes };
  } catch (e) {
    return { valid: false, error: 'db: ' + String(e && e.message ? e.message : e).slice(0, 500) };
  }
}

const input = JSON.parse(readFileSync(0, 'utf8'));
if (!Array.isArray(input) && input.mode === 'bench') {
  // Timing only: Mermaid's parse on each text, `repeat` rounds; prints {"elapsed_ms", "count", "valid"}.
  const repeat = input.repeat || 1;
  let valid = 0;
  for (const t of input.texts.slice(0, 5)) { try { await mermaid.parse(t); } catch { /* warm-up */ } }
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < repeat; r++) {
    for (const t of input.texts) {
      try { await mermaid.parse(t); valid++; } catch { /* counted as invalid */ }
    }
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  // Mermaid's sequence grammar alone (its jison lexer + parser + database), without mermaid.parse's
  // preprocessing, diagram detection and config handling.
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(input.texts[0]);
  const t1 = process.hrtime.bigint();
  for (let r = 0; r < repeat; r++) {
    for (const t of input.texts) {
      diagram.db.clear();
      diagram.parser.parser.yy = diagram.db;
      try { diagram.parser.parse(t + '\n'); } catch { /* invalid */ }
    }
  }
  const grammarMs = Number(process.hrtime.bigint() - t1) / 1e6;
  process.stdout.write(JSON.stringify({ elapsed_ms: ms, grammar_ms: grammarMs, count: input.texts.length * repeat, valid }) + '\n');
  process.exit(0);
}
const items = Array.isArray(input) ? input.map((f) => ({ file: f })) : input.texts.map((t, i) => ({ file: String(i), text: t }));
const out = [];
const started = process.hrtime.bigint();
for (const item of items) {
  let text = item.text;
  if (text === undefined) {
    try { text = readFileSync(item.file, 'utf8'); } catch (e) { out.push(JSON.stringify({ file: item.file, valid: false, error: 'unreadable' })); continue; }
  }
  out.push(JSON.stringify({ file: item.file, ...(await oracle(text)) }));
}
const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(out.join('\n') + '\n');
process.stderr.write(JSON.stringify({ elapsed_ms: elapsedMs, count: items.length }) + '\n');
