// The peer for `extract-vs-remark-full`: a complete remark parse (unified + remark-parse)
// and a walk over the tree that finds the same examples our extractor finds in the
// benchmark prompt: `tool_call` and `json` fences, and `<tool_call>` tags in prose (which
// CommonMark does not treat as HTML, so they are read from the source by position).
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const processor = unified().use(remarkParse);
const callFences = new Set(['tool_call', 'json']);
const hermes = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;

function callOf(value) {
  return value !== null && typeof value === 'object' && typeof value.name === 'string' && 'arguments' in value ? { name: value.name, arguments: value.arguments } : undefined;
}

export function remarkExamples(text) {
  const tree = processor.parse(text);
  const found = [];
  const walk = (node) => {
    if (node.type === 'code') {
      if (callFences.has(node.lang ?? '')) {
        try {
          const call = callOf(JSON.parse(node.value));
          if (call) found.push(call);
        } catch {
          // not an example
        }
      }
      return;
    }
    if (node.type === 'paragraph' || node.type === 'html') {
      const source = text.slice(node.position.start.offset, node.position.end.offset);
      for (const m of source.matchAll(hermes)) {
        try {
          const call = callOf(JSON.parse(m[1]));
          if (call) found.push(call);
        } catch {
          // not an example
        }
      }
      return;
    }
    if (node.children) for (const child of node.children) walk(child);
  };
  walk(tree);
  return found;
}
