import test from 'ava';
import { anchoredBody, renumber } from '../../../../../actors/indexer/map/symbols/definitions.js';
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

test('a rule is anchored when its every branch starts at the line start; `|` inside a group or class keeps it so', (t) => {
  t.is(anchoredBody('^export\\s+(?:a|b)[|]'), 'export\\s+(?:a|b)[|]');
  t.is(anchoredBody('^a|b'), undefined, 'the second branch is not anchored');
  t.is(anchoredBody('a'), undefined);
  t.is(anchoredBody('^a\\|b'), 'a\\|b', 'an escaped bar is a bar');
});

test('with `^` tested once for all rules, every language finds at every line what one anchor per rule finds', (t) => {
  // Lines that start like the rules of each language, and lines that start otherwise.
  const lines = [
    'export default async function main() {}', 'export const x = 1', 'export { a as b, type C } from "./m"', 'export * as ns from "x"', 'export = Foo;',
    'module.exports = { a, b: c }', 'exports.run = 1', 'declare function f(): void', 'abstract class A {}', 'interface I {}', 'type T = 1', 'const enum E {}',
    'def run(x):', 'async def go():', 'class Spider(object):', 'MAX_SIZE = 10', '_private = 1', 'func (s *S) Run() {}', 'type Server struct {', 'pub fn run() {}',
    'pub struct S;', 'impl Trait for S {', 'public class Main {', 'fun main() {}', 'struct Point {', '#define MAX(a, b) ((a) > (b))', 'int main(void) {',
    'static void helper(void);', 'module Foo', 'def self.call', 'function f() {', 'local function g()', 'M.h = function()', 'run() {', 'protocol P {',
    '  indented def not_top():', '\tfunc tabbed()', '// export const commented = 1', '', 'x', 'export', 'class', 'def',
  ];
  const text = `${lines.join('\n')}\n${lines.join('\r\n')}\n`;
  for (const language of LANGUAGES) {
    let next = 1;
    const sources = language.rules.map((rule) => {
      const renumbered = renumber(rule.pattern.source, next + 1);
      next += 1 + renumbered.groups;
      return renumbered.source;
    });
    const perRule = new RegExp(sources.map((source) => `(${source})`).join('|'), 'gm');
    const once = new RegExp(`^(?:${sources.map((source) => `(${anchoredBody(source)!})`).join('|')})`, 'gm');
    t.true(sources.every((source) => anchoredBody(source) !== undefined), `${language.name}: every rule anchored`);
    const matches = (regex: RegExp) => [...text.matchAll(regex)].map((match) => `${match.index}:${match.map(String).join('\u0001')}`);
    t.deepEqual(matches(once), matches(perRule), language.name);
  }
});
