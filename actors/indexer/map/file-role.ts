// What a path is, for ranking: core source, a test (or a bench or example: code around the core
// that the core never uses), or generated/vendored code. Tests and generated files get a tenth or
// less of the ranking's teleport mass so they cannot crowd out the core.

export type FileRole = 'core' | 'test' | 'generated';

export const ROLE_WEIGHT: Record<FileRole, number> = { core: 1, test: 0.1, generated: 0.05 };

const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|specs?|testing|testdata|test-?data|fixtures|__fixtures__|__mocks__|e2e|bench|benches|benchmarks?|examples?)\//i;
const TEST_FILE =
  /(?:\.(?:test|spec|e2e)\.[^/]+|_test\.(?:go|py|rb|exs?)|(?:^|\/)test_[^/]+\.py|(?:^|\/)conftest\.py|(?:Tests?|Spec)\.(?:java|kt|cs|swift|php|scala)|_spec\.rb)$/;
const GENERATED_DIR = /(?:^|\/)(?:vendor|third[_-]party|generated|__generated__|gen)\//i;
const GENERATED_FILE = /(?:\.(?:generated|gen|g|pb|pb\.gw|min)\.[^/]+|_pb2(?:_grpc)?\.py|\.pb\.(?:h|cc)|_gen\.go|_string\.go)$/;

/** What a path is, for ranking: core source, a test, or generated/vendored code. */
export function roleOf(path: string, generated = false): FileRole {
  if (generated || GENERATED_DIR.test(path) || GENERATED_FILE.test(path)) return 'generated';
  if (TEST_DIR.test(path) || TEST_FILE.test(path)) return 'test';
  return 'core';
}
