import test from 'ava';
import { identifierHashes, WatchedWords } from '../../../../../actors/indexer/map/identifiers.js';
import { languageOf } from '../../../../../actors/indexer/map/symbols/languages.js';
import { definitionsOf } from './definitions-of.js';

test('a Python module lists top-level functions, classes and constants; underscores are private', (t) => {
  const source = `"""HTTP retry helpers."""
import time
from dataclasses import dataclass

DEFAULT_RETRIES = 3
BACKOFF: float = 0.5
_cache = {}


@dataclass
class RetryPolicy:
    retries: int = DEFAULT_RETRIES

    def delay(self, attempt):
        return BACKOFF * 2 ** attempt


class _Clock:
    pass


def retry(call, policy=None):
    def inner():
        return call()
    return inner()


async def retry_async(call):
    return await call()


def _sleep(seconds):
    time.sleep(seconds)
`;
  t.deepEqual(definitionsOf('pkg/retry.py', source), [
    '+ DEFAULT_RETRIES constant',
    '+ BACKOFF constant',
    '+ RetryPolicy class',
    '- _Clock class',
    '+ retry function',
    '+ retry_async function',
    '- _sleep function',
  ]);
});

test('__all__ decides what a Python module exports and adds its re-exports', (t) => {
  const source = `from .client import Client, connect
from .errors import ApiError

__all__ = [
    "Client",
    "connect",
    "ApiError",
    "build",
]
__all__ += ("VERSION",)

VERSION = "2.1"


def build():
    return Client()


def helper():
    pass
`;
  t.deepEqual(definitionsOf('pkg/__init__.py', source), [
    '+ Client variable',
    '+ connect variable',
    '+ ApiError variable',
    '+ VERSION constant',
    '+ build function',
    '- helper function',
  ]);
});

test('Python imports give module specifiers, a from-import trying the submodule before the module', (t) => {
  const python = languageOf('pkg/a.py')!;
  const source = `import os.path, json as j
from scrapy.http import Request, Response as R
from . import signals
from ..utils.misc import (
    load_object,
    walk_modules,
)
from .mod import *

def f():
    from twisted.internet import reactor
`;
  // A from-import is one group: the module, then its names, tab-separated (`Language.imports`).
  t.deepEqual(python.imports!(source), ['os/path|os', 'json', 'scrapy/http\tRequest\tResponse', './\tsignals', '../utils/misc\tload_object\twalk_modules', './mod', 'twisted/internet\treactor']);
});

test('Python imports read only at the keywords’ lines are the imports a search of the whole text finds', (t) => {
  const python = languageOf('pkg/a.py')!;
  const sources = [
    `import os.path, json as j\nfrom . import signals\nfrom ..utils.misc import (\n    load_object,\n    import_module,\n)\nfrom .mod import *\n`,
    // Not at a line start, after ';', in a string, CR and U+2028 line ends, tabs, odd dots.
    `x = 1; import a\n  s = "import b"\r\timport c\u2028from d import e\nfrom  ..  import f\nfrom .a..b. import g\nimport h.i..j\n`,
    `from x import (a,\n  from_, import_b) ; import k\n\\\nfrom y import z as w, *, 9q, ok\nif x: import m\nimportlib.import_module('n')\n`,
  ];
  for (const source of sources) {
    const at: number[] = [];
    identifierHashes(source, new WatchedWords(python.importWords!), at);
    t.deepEqual(python.imports!(source, at), python.imports!(source), source);
  }
  // `import c` runs to the line feed: U+2028 ends its name, not its line.
  t.deepEqual(python.imports!(sources[1]!), ['c', '../\tf', './a/b\tg', 'h/i//j|h/i/|h/i|h']);
});
