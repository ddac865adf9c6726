import test from 'ava';
import { renumber } from '../../../../../actors/indexer/map/symbols/definitions.js';
import { LANGUAGES } from '../../../../../actors/indexer/map/symbols/languages.js';

test('renumbering a rule counts its capturing groups as the regex engine does, for every rule of every language', (t) => {
  for (const language of LANGUAGES) {
    for (const [index, rule] of language.rules.entries()) {
      const engine = new RegExp(`${rule.pattern.source}|`).exec('')!.length - 1;
      t.is(renumber(rule.pattern.source, 1).groups, engine, `${language.name} rule ${index}`);
    }
  }
});

test('named groups become numbered ones, and back-references follow them', (t) => {
  const { source, names, numbers, groups } = renumber(String.raw`(?<q>["'])(?:\((?<name>\w+)\))?[(]\k<q>`, 3);
  t.is(source, String.raw`(["'])(?:\((\w+)\))?[(]\3`);
  t.deepEqual(names, ['q', 'name']);
  t.deepEqual(numbers, [3, 4]);
  t.is(groups, 2);
});
