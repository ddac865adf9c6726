import test from 'ava';
import { roleOf } from '../../../../actors/indexer/map/file-role.js';

test('paths are told apart as core, test or generated', (t) => {
  t.is(roleOf('src/index.ts'), 'core');
  t.is(roleOf('src/latest.ts'), 'core');
  t.is(roleOf('src/contest/score.py'), 'core');
  t.is(roleOf('bench/scan.bench.ts'), 'test');
  t.is(roleOf('examples/basic/main.go'), 'test');
  for (const path of ['test/a.ts', 'src/__tests__/a.tsx', 'a.test.ts', 'b.spec.js', 'pkg/x_test.go', 'tests/test_api.py', 'app/conftest.py', 'src/FooTest.java', 'spec/models/user_spec.rb', 'Tests/FooTests.swift']) {
    t.is(roleOf(path), 'test', path);
  }
  for (const path of ['vendor/lib/a.go', 'api/service.pb.go', 'proto/api_pb2.py', 'src/schema.generated.ts', 'third_party/x.c', 'web/app.min.js']) {
    t.is(roleOf(path), 'generated', path);
  }
  t.is(roleOf('src/a.ts', true), 'generated');
});
