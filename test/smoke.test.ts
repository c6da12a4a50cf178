import { unified } from 'unified';
import remarkParse from 'remark-parse';
test('remark parses', () => {
  const tree = unified().use(remarkParse).parse('# hi\n\n```json\n{}\n```\n');
  expect(tree.children.map((c) => c.type)).toEqual(['heading', 'code']);
});
