import { fromMarkdown } from 'mdast-util-from-markdown';

/** What a Markdown renderer makes of `text`: every node kind it holds, and its plain text nodes' values. */
export function markdownParts(text: string): { kinds: Set<string>; texts: string[] } {
  const kinds = new Set<string>();
  const texts: string[] = [];
  const walk = (node: { type: string; value?: string; children?: unknown[] }): void => {
    kinds.add(node.type);
    if (node.type === 'text' && node.value !== undefined) texts.push(node.value);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(fromMarkdown(text));
  return { kinds, texts };
}
