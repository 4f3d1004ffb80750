// Round five oracle: what Mermaid 12.3.0 (the pinned node_modules/mermaid, in jsdom) takes from a diagram
// beyond its drawing: the config its directives and front matter set, actor links and properties, and the
// kind of diagram it is. Input (stdin): {"texts": [...]}. Output: one JSON object per text, per line.
import mermaid from '../parse/mermaid_in_node.mjs';

async function read(text) {
  try {
    const parsed = await mermaid.parse(text);  // {diagramType, config}: what its directives and front matter set
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    const db = diagram.db;
    const actors = db.getActors ? [...db.getActors().values()] : [];
    return {
      type: diagram.type,
      config: parsed && parsed.config ? parsed.config : {},
      links: actors.filter(a => a.links && Object.keys(a.links).length).map(a => [a.name, a.links]),
      properties: actors.filter(a => a.properties && Object.keys(a.properties).length).map(a => [a.name, a.properties]),
      created: db.getCreatedActors ? [...db.getCreatedActors().keys()] : [],
      destroyed: db.getDestroyedActors ? [...db.getDestroyedActors().keys()] : [],
      accDescription: db.getAccDescription ? db.getAccDescription() : '',
    };
  } catch (e) {
    return { error: String(e && e.message ? e.message : e).slice(0, 300) };
  }
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
for (const text of JSON.parse(input).texts) process.stdout.write(JSON.stringify(await read(text)) + '\n');
