import test from 'ava';
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
  t.deepEqual(python.imports!(source), [
    'os/path|os',
    'json',
    'scrapy/http/Request|scrapy/http',
    'scrapy/http/Response|scrapy/http',
    './signals|./',
    '../utils/misc/load_object|../utils/misc',
    '../utils/misc/walk_modules|../utils/misc',
    './mod',
    'twisted/internet/reactor|twisted/internet',
  ]);
});
