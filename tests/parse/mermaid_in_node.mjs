// The pinned Mermaid (node_modules/mermaid) in node: the DOM it needs from jsdom, then Mermaid itself,
// initialized as the site draws (strict, quiet). Shared by the oracles that ask Mermaid what it reads.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const key of ['Option', 'Element', 'HTMLElement', 'SVGElement', 'DOMParser', 'navigator']) {
  if (!(key in globalThis)) {
    try { globalThis[key] = dom.window[key]; } catch { /* read-only in node */ }
  }
}

const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', logLevel: 5 });

export default mermaid;
