import test from 'ava';
import { fromRoot, importEdges, join, ModuleIndex, Rooter } from '../../../../actors/indexer/map/imports.js';

/** The paths `specifier` names from `from`, in a tree of `paths`. */
function resolve(paths: string[], specifier: string, from: string): string[] {
  return new ModuleIndex(paths).resolve(specifier, from).map((file) => paths[file]!);
}

test('a relative specifier names the file at that path, or the folder’s index or __init__.py', (t) => {
  const paths = ['src/app.ts', 'src/db.ts', 'src/ui/index.tsx', 'pkg/__init__.py', 'pkg/mod.py', 'pkg/sub/run.py'];
  t.deepEqual(resolve(paths, './db', 'src/app.ts'), ['src/db.ts']);
  t.deepEqual(resolve(paths, './ui', 'src/app.ts'), ['src/ui/index.tsx']);
  t.deepEqual(resolve(paths, './ui/index', 'src/app.ts'), ['src/ui/index.tsx']);
  t.deepEqual(resolve(paths, '../app', 'src/ui/index.tsx'), ['src/app.ts']);
  t.deepEqual(resolve(paths, '../mod', 'pkg/sub/run.py'), ['pkg/mod.py']);
  t.deepEqual(resolve(paths, '../', 'pkg/sub/run.py'), ['pkg/__init__.py']);
  t.deepEqual(resolve(paths, './missing', 'src/app.ts'), []);
  t.deepEqual(resolve(paths, '../../../etc', 'src/app.ts'), [], 'above the root names nothing');
});

test('a package specifier names the files whose path ends with it, workspace src folders and scopes dropped', (t) => {
  const paths = ['packages/shared/src/index.ts', 'packages/shared/src/general.ts', 'packages/element/src/binding.ts', 'scrapy/http/__init__.py', 'scrapy/http/headers.py'];
  t.deepEqual(resolve(paths, '@vue/shared', 'packages/core/src/a.ts'), ['packages/shared/src/index.ts']);
  t.deepEqual(resolve(paths, '@excalidraw/element/binding', 'x.ts'), ['packages/element/src/binding.ts']);
  t.deepEqual(resolve(paths, 'scrapy/http', 'tests/test_a.py'), ['scrapy/http/__init__.py']);
  t.deepEqual(resolve(paths, 'scrapy/http/headers|scrapy/http', 'tests/test_a.py'), ['scrapy/http/headers.py']);
  t.deepEqual(resolve(paths, 'scrapy/http/Headers|scrapy/http', 'tests/test_a.py'), ['scrapy/http/__init__.py'], 'a name, not a module: the package');
});

test('one bare segment names only a folder, so the standard library and registry packages link nothing', (t) => {
  const paths = ['src/json.py', 'src/path.ts', 'src/react/hooks.ts', 'utils/__init__.py'];
  t.deepEqual(resolve(paths, 'json', 'src/a.py'), []);
  t.deepEqual(resolve(paths, 'path', 'src/a.ts'), []);
  t.deepEqual(resolve(paths, 'react', 'src/a.ts'), []);
  t.deepEqual(resolve(paths, 'utils', 'src/a.py'), ['utils/__init__.py']);
});

test('of several matches the shortest paths win, and a TypeScript importer prefers TypeScript', (t) => {
  const paths = ['packages/vue/index.js', 'packages/vue/index.mjs', 'packages/vue/src/index.ts', 'a/b/util/index.ts', 'c/util/index.ts', 'd/util/index.ts'];
  t.deepEqual(resolve(paths, 'vue', 'packages/runtime/src/a.ts'), ['packages/vue/src/index.ts']);
  t.deepEqual(resolve(paths, 'vue', 'scripts/build.js'), ['packages/vue/index.js', 'packages/vue/index.mjs']);
  t.deepEqual(resolve(paths, 'util', 'x.ts'), ['c/util/index.ts', 'd/util/index.ts'], 'a shared edge');
});

test('extraction makes relative specifiers root-relative, and the index looks those up as they are', (t) => {
  t.is(fromRoot('../shared/util', 'packages/core/src/a.ts'), '/packages/core/shared/util');
  t.is(fromRoot('./signals|./', 'scrapy/core/engine.py'), '/scrapy/core/signals|/scrapy/core');
  t.is(fromRoot('scrapy/http/Request|scrapy/http', 'tests/test_a.py'), 'scrapy/http/Request|scrapy/http');
  t.is(fromRoot('../../../etc', 'src/a.ts'), '', 'above the root: dropped');
  const paths = ['src/app.ts', 'src/db.ts', 'src/ui/index.tsx'];
  t.deepEqual(resolve(paths, '/src/db', 'anywhere.ts'), ['src/db.ts']);
  t.deepEqual(resolve(paths, '/src/ui', 'anywhere.ts'), ['src/ui/index.tsx']);
});

test('import edges list each imported file once per importer, with the shares of shared edges, never the file itself', (t) => {
  const files = [
    { path: 'a/util/index.ts', imports: '/a/util' },
    { path: 'app.ts', imports: '/a/util util /a/util' },
    { path: 'b/util/index.ts' },
  ];
  const edges = importEdges(files);
  t.deepEqual([...edges.start], [0, 0, 2, 2]);
  t.deepEqual([...edges.file], [0, 2]);
  // `/a/util` twice (1 + 1), and `util` shared with b/util (½ each).
  t.deepEqual([...edges.share], [2.5, 0.5]);
});

/** `join` as it was first written: one segment at a time (the shortcut for `./a/b` must agree). */
function joinBySegments(folder: string, specifier: string): string | undefined {
  let base = folder.endsWith('/') ? folder.slice(0, -1) : folder;
  for (const segment of specifier.split('/')) {
    if (segment === '..') {
      if (base === '') return undefined;
      base = base.slice(0, Math.max(0, base.lastIndexOf('/')));
    } else if (segment !== '' && segment !== '.') {
      base = base === '' ? segment : `${base}/${segment}`;
    }
  }
  return base;
}

test('joining a relative specifier to a folder agrees with a segment-by-segment walk, odd spellings too', (t) => {
  const parts = ['.', '..', 'x', 'y.z', '.h', '', 'src', '...'];
  const specifiers: string[] = [];
  const grow = (prefix: string, depth: number) => {
    for (const part of parts) {
      const specifier = prefix === '' ? part : `${prefix}/${part}`;
      specifiers.push(specifier, `./${specifier}`, `../${specifier}`, `../../${specifier}`, `${specifier}/`);
      if (depth > 1) grow(specifier, depth - 1);
    }
  };
  grow('', 3);
  let compared = 0;
  for (const folder of ['', 'a/', 'a/b/', 'a/b/c/', 'x']) {
    for (const specifier of specifiers) {
      if (join(folder, specifier) !== joinBySegments(folder, specifier)) t.fail(`${folder} + ${specifier}`);
      compared++;
    }
  }
  t.true(compared > 10_000);
});

test('one file’s specifiers rooted in turn are each rooted as on their own, alternatives above the root dropped', (t) => {
  const specifiers = ['./a/x|./a', './a/y|./a', '../../up|./here', './b|../../up', '../../up', 'pkg/mod|pkg', './a', '', 'a||./b'];
  for (const path of ['src/app.py', 'app.py', 'a/b/c/d.ts']) {
    const rooter = new Rooter(path);
    for (const specifier of specifiers) t.is(rooter.root(specifier), fromRootAlone(specifier, path), `${specifier} from ${path}`);
  }
  t.is(new Rooter('src/app.py').root('../../up|./here'), '/src/here');
  t.is(new Rooter('src/app.py').root('./b|../../up'), '/src/b');
});

/** `fromRoot` as it was first written: split, root each alternative, join. */
function fromRootAlone(specifier: string, path: string): string {
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  const alternatives: string[] = [];
  for (const alternative of specifier.split('|')) {
    if (alternative.charCodeAt(0) !== 46) alternatives.push(alternative);
    else {
      const joined = join(folder, alternative);
      if (joined !== undefined) alternatives.push(`/${joined}`);
    }
  }
  return alternatives.join('|');
}

test('specifiers read in place from an import list resolve as each one alone does', (t) => {
  const paths = ['scrapy/http/__init__.py', 'scrapy/http/headers.py', 'scrapy/core/engine.py', 'src/db.ts', 'src/ui/index.tsx'];
  const modules = new ModuleIndex(paths);
  const list = '/scrapy/http/headers|/scrapy/http /scrapy/http/Request|/scrapy/http /scrapy/x|/scrapy/y /src/db scrapy/http ./missing /src/ui  /x|/scrapy/http';
  const importer = modules.importer('scrapy/core/engine.py');
  let at = 0;
  for (const specifier of list.split(' ')) {
    t.deepEqual([...modules.resolveIn(list, at, at + specifier.length, importer)], [...new ModuleIndex(paths).resolve(specifier, 'scrapy/core/engine.py')], specifier);
    at += specifier.length + 1;
  }
});

/** A group `m\tx\ty` as the specifiers it stands for: `m/x|m`, `m/y|m` (`m` ending in `/`: `mx|m`). */
function expandGroup(group: string): string[] {
  const [module, ...names] = group.split('\t');
  if (names.length === 0) return [group];
  const prefix = module!.endsWith('/') ? module! : `${module!}/`;
  return names.map((name) => `${prefix}${name}|${module!}`);
}

test('a group (a Python from-import) is rooted once, and as each of its names would be alone', (t) => {
  const groups = ['./\tsignals\tx', './mod\ta\tb', '../utils/misc\tload_object', '../../../up\ta', '../\tf', 'scrapy/http\tRequest', 'os', './a/b\tg'];
  for (const path of ['src/app.py', 'app.py', 'a/b/c/d.py']) {
    const rooter = new Rooter(path);
    for (const group of groups) {
      const rooted = rooter.root(group);
      t.deepEqual(rooted === '' ? [] : expandGroup(rooted), expandGroup(group).map((one) => fromRootAlone(one, path)).filter((one) => one !== ''), `${group} from ${path}`);
    }
  }
});

test('import edges of a group are those of its names one by one, shares and order alike', (t) => {
  const paths = ['pkg/__init__.py', 'pkg/mod.py', 'pkg/sub/__init__.py', 'pkg/sub/run.py', 'pkg/sub/util.py', 'top.py', 'scrapy/http/__init__.py', 'scrapy/http/headers.py', 'src/lib/index.ts'];
  const lists = [
    '/pkg/sub\trun\tutil\tnothing /pkg/mod\ta\tb',
    '/pkg\tsub\tmod\tmissing\tmod',
    '/\ttop\tpkg\tnone',
    'scrapy/http\theaders\tRequest\tResponse',
    '/pkg/sub/run\tx /pkg/missing\ty',
    './sub\trun\tgone',
    'lib\tindex',
  ];
  for (const list of lists) {
    const grouped = paths.map((path) => ({ path, imports: path === 'pkg/mod.py' ? list : '' }));
    const expanded = paths.map((path) => ({ path, imports: path === 'pkg/mod.py' ? list.split(' ').flatMap(expandGroup).join(' ') : '' }));
    const [a, b] = [importEdges(grouped), importEdges(expanded)];
    t.deepEqual([...a.start], [...b.start], list);
    t.deepEqual([...a.file], [...b.file], list);
    t.deepEqual([...a.share], [...b.share], list);
  }
});
