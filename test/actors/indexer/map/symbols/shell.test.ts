import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a shell script lists its functions in both spellings', (t) => {
  const source = `#!/usr/bin/env bash
set -euo pipefail

log() {
  printf '%s\\n' "$*" >&2
}

function die {
  log "$@"
  exit 1
}

function build_image() {
  docker build -t "$1" .
}

deploy::rollout () {
  kubectl rollout status "deploy/$1"
}

if [ "$#" -eq 0 ]; then
  die "usage: deploy.sh IMAGE"
fi
build_image "$1"
`;
  t.deepEqual(definitionsOf('scripts/deploy.sh', source), [
    '+ log function',
    '+ die function',
    '+ build_image function',
    '+ deploy::rollout function',
  ]);
});
