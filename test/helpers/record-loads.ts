import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

/**
 * A preload (`node --import …/record-loads.js`) that appends to the file `$REIKA_TEST_LOADS` every
 * module the process loads: ES modules by their resolved URL (a resolve hook), CommonJS by the
 * request (`Module._load`), one per line. For tests of what a start loads.
 */

const file = process.env.REIKA_TEST_LOADS;
if (file) {
  const Module = createRequire(import.meta.url)('node:module') as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = Module._load;
  Module._load = function (this: unknown, request: string, ...rest: unknown[]) {
    appendFileSync(file, `${request}\n`);
    return load.call(this, request, ...rest);
  };
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(file)}, result.url + '\\n');
  return result;
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/** The packages among recorded loads: `@scope/name` or `name`, from node_modules paths and bare requests. */
export function packagesIn(lines: string[]): string[] {
  const names = new Set<string>();
  for (const line of lines) {
    const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(line);
    if (inModules) names.add(inModules[1]!);
    else if (!/^([./]|[a-z]+:)/.test(line)) names.add(/^((?:@[^/]+\/)?[^/]+)/.exec(line)![1]!);
  }
  return [...names].sort();
}
