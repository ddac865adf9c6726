import test from 'ava';
import { hashIdentifier, identifierHashes, WatchedWords } from '../../../../actors/indexer/map/identifiers.js';

const hashes = (words: string[]) => [...Int32Array.from(words, hashIdentifier)];

test('a file’s mentions are its distinct identifiers of four or more characters, in first-seen order', (t) => {
  const text = 'const session = openSession(id);\nsession.close(); // openSession again\n$store._private_x = 0x1F + 10px;';
  t.deepEqual([...identifierHashes(text)], hashes(['const', 'session', 'openSession', 'close', 'again', '$store', '_private_x']));
});

test('a mention hashes like the defined name it spells, and different names hash apart', (t) => {
  t.is(identifierHashes('x = parseConfig(y)')[0], hashIdentifier('parseConfig'));
  t.not(hashIdentifier('parseConfig'), hashIdentifier('parseConfiG'));
  const names = Array.from({ length: 20_000 }, (_, i) => `name${i}`);
  t.is(new Set(names.map(hashIdentifier)).size, names.length);
  for (const name of names.slice(0, 50)) t.true(hashIdentifier(name) >= 0 && hashIdentifier(name) < 2 ** 31);
});

test('empty text and text without identifiers mention nothing', (t) => {
  t.deepEqual([...identifierHashes('')], []);
  t.deepEqual([...identifierHashes('1 + 2 = 3; (a) [bb] {ccc}')], []);
});

test('thousands of distinct names keep their first-seen order, and the next file starts with none seen', (t) => {
  const names = Array.from({ length: 12_000 }, (_, i) => `name${(i * 7919) % 12_000}`);
  const text = `${names.join(' ')}\n${names.slice(0, 500).reverse().join('.')}`;
  t.deepEqual([...identifierHashes(text)], hashes(names));
  t.deepEqual([...identifierHashes('name1 name2 name1 other')], hashes(['name1', 'name2', 'other']));
  t.deepEqual([...identifierHashes(text)], hashes(names));
});

test('watched words are noted wherever they stand as whole identifiers, in order, repeats too', (t) => {
  const watched = new WatchedWords(['from', 'import']);
  const text = "import a from 'x';\nfromage $from import_x 1from from('y') /* import */";
  const at: number[] = [];
  const mentions = identifierHashes(text, watched, at);
  t.deepEqual(at, [0, 9, text.indexOf("from('y')"), text.indexOf('import */')]);
  t.deepEqual([...mentions], [...identifierHashes(text)], 'the mentions are the same with or without watching');
  t.throws(() => new WatchedWords(['get']), { message: /4\+ characters/ });
  t.throws(() => new WatchedWords(['aaaa', 'bbbb', 'cccc', 'dddd']));
});
