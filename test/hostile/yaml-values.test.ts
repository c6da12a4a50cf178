// Plain YAML values that would not reach a prompt or a tool call as written are refused at
// their place: JSON has no NaN or infinity (sent as null), no exact integer past 2^53 (sent
// rounded), and YAML 1.2 has no merge key (sent as a key named `<<`).
import { describe, expect, test } from '@jest/globals';
import { parseYaml } from '../../src/util/yaml.js';

const refused = (text: string) => {
  try {
    parseYaml(text, 'prompts/examples/weather.yaml');
  } catch (error) {
    return error as { code: string; line: number; column: number; message: string };
  }
  return undefined;
};

describe('values JSON cannot carry', () => {
  test.each([
    ['.inf', /Unexpected `\.inf`, a number JSON cannot hold \(it would be sent as `null`\)/],
    ['-.Inf', /Unexpected `-\.Inf`/],
    ['.nan', /Unexpected `\.nan`/],
    ['9007199254740993', /Unexpected integer `9007199254740993`, past what JSON numbers hold exactly \(2\^53; it would be sent as `9007199254740992`\)/],
    ['0x20000000000001', /Unexpected integer `0x20000000000001`, .* it would be sent as `9007199254740992`/],
    ['!!float .inf', /Unexpected `\.inf`/],
    ['!!int 9007199254740993', /Unexpected integer `9007199254740993`/],
  ])('`%s` is refused at its line and column', (value, message) => {
    const error = refused(`- name: get_weather\n  arguments:\n    temp: ${value}\n`);
    expect(error).toMatchObject({ code: 'config/yaml-value', line: 3, column: 11 + (value.startsWith('!!') ? value.indexOf(' ') + 1 : 0) });
    expect(error!.message).toMatch(message);
  });

  test('the same written as text, or as a number JSON holds, reads as before', () => {
    for (const value of ['".inf"', "'.nan'", '"9007199254740993"', '9007199254740991', '-12.5', '1e3', 'inf', '.5']) {
      expect([value, refused(`temp: ${value}\n`)]).toEqual([value, undefined]);
    }
    expect(parseYaml('a: 9007199254740991\nb: ".inf"\n', 'f.yaml').value).toEqual({ a: 9007199254740991, b: '.inf' });
  });
});

describe('merge keys', () => {
  test('`<<` as a key is refused at its place; as a value, or quoted, it is text', () => {
    const error = refused('base: &b\n  city: Paris\nexample:\n  <<: *b\n  units: metric\n');
    expect(error).toMatchObject({ code: 'config/yaml-value', line: 4, column: 3 });
    expect(error!.message).toContain('Unexpected merge key `<<`');
    expect(parseYaml('arrow: <<\n"<<": quoted\nlist: [<<]\n', 'f.yaml').value).toEqual({ arrow: '<<', '<<': 'quoted', list: ['<<'] });
  });

  test('keys are told from values in nested and flow mappings, and after aliases', () => {
    expect(refused('a: {x: 1, <<: {y: 2}}\n')).toMatchObject({ line: 1, column: 11 });
    expect(refused('a: &v 1\nb: {k: *v, <<: 2}\n')).toMatchObject({ line: 2, column: 12 });
    expect(refused('- [<<, <<]\n- {<<x: 1}\n')).toBeUndefined();
  });
});
