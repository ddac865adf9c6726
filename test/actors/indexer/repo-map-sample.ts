import type { Tree } from '../../helpers/temp.js';

/**
 * A generated multi-package repository for repo-map tests and the bench: real-looking
 * TypeScript, Python and Go modules that call each other, with one truly central module
 * (`packages/core/src/service-registry.ts`, used by nearly every module), package-local helpers,
 * tests that all lean on one test helper, a generated client with many exports, and a module of
 * short common names (`get`, `set`, `run`, …) that every file happens to say. Deterministic: the
 * same arguments give the same tree.
 */

export const CENTRAL_MODULE = 'packages/core/src/service-registry.ts';

export interface SampleOptions {
  /** Packages besides `core`. */
  packages: number;
  /** Source modules per package. */
  modulesPerPackage: number;
  /** Test files per package. */
  testsPerPackage?: number;
  /** Roughly how many functions each module defines (sets file size: ~1 KB each). */
  functionsPerModule?: number;
}

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS = ['load', 'build', 'resolve', 'render', 'parse', 'validate', 'merge', 'schedule', 'collect', 'encode', 'normalize', 'dispatch'];
const NOUNS = ['Invoice', 'Account', 'Session', 'Report', 'Profile', 'Ledger', 'Shipment', 'Catalog', 'Token', 'Quota', 'Snapshot', 'Webhook'];

const pascal = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface Module {
  path: string;
  language: 'ts' | 'py' | 'go';
  exports: string[];
}

export function sampleRepo(options: SampleOptions): Tree {
  const next = random(options.packages * 7919 + options.modulesPerPackage);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const functions = options.functionsPerModule ?? 4;
  const tree: Tree = {};

  tree[CENTRAL_MODULE] = `/** The process-wide registry every service registers with. */
export interface ServiceDescriptor {
  name: string;
  version: number;
  dependsOn: string[];
}

const services = new Map<string, ServiceDescriptor>();

export class ServiceRegistry {
  lookupService(name: string): ServiceDescriptor | undefined {
    return services.get(name);
  }
}

export function registerService(descriptor: ServiceDescriptor): ServiceDescriptor {
  services.set(descriptor.name, descriptor);
  return descriptor;
}
`;
  tree['packages/core/src/common.ts'] = `export function get(key: string) { return key; }
export function set(key: string, value: unknown) { return [key, value]; }
export function run(task: () => void) { task(); }
export const map = new Map<string, string>();
export const key = 'k';
`;
  tree['test/helpers/harness.ts'] = `export function createTestHarness(name: string) {
  return { name, cleanups: [] as Array<() => void> };
}
export function expectEventually(check: () => boolean): boolean {
  return check();
}
`;

  const modules: Module[] = [];
  for (let p = 0; p < options.packages; p++) {
    const pkg = `${pick(NOUNS).toLowerCase()}-${p}`;
    const language: Module['language'] = p % 7 === 5 ? 'py' : p % 7 === 6 ? 'go' : 'ts';
    const local: Module[] = [];
    for (let m = 0; m < options.modulesPerPackage; m++) {
      const noun = pick(NOUNS);
      const exports = Array.from({ length: functions }, (_, f) => `${VERBS[(m + f + p) % VERBS.length]}${noun}${p}x${m}`);
      const base = `${noun.toLowerCase()}-${m}`;
      const path =
        language === 'py' ? `packages/${pkg}/${pkg.replace('-', '_')}/${base.replace('-', '_')}.py` : language === 'go' ? `packages/${pkg}/${base.replace('-', '')}.go` : `packages/${pkg}/src/${base}.ts`;
      local.push({ path, language, exports: language === 'go' ? exports.map(pascal) : language === 'py' ? exports.map(snake) : exports });
    }
    for (const [index, module] of local.entries()) {
      const sibling = local[(index + 1) % local.length]!;
      tree[module.path] = moduleSource(module, sibling, next);
      modules.push(module);
    }
    for (let t = 0; t < (options.testsPerPackage ?? 0); t++) {
      const target = local[t % local.length]!;
      tree[`packages/${pkg}/test/${t}.test.ts`] = testSource(target);
    }
    if (p === 0) tree[`packages/${pkg}/src/generated/api.generated.ts`] = generatedSource(60);
  }
  return tree;
}

function moduleSource(module: Module, sibling: Module, next: () => number): string {
  const lines: string[] = [];
  const uses = next() < 0.9;
  if (module.language === 'ts') {
    // `get`, `set`, `run`, `map` are said, never imported from common.ts: short names that mean little.
    lines.push(
      `import { registerService, ServiceRegistry } from '../../core/src/service-registry.js';`,
      `import { ${sibling.exports.join(', ')} } from './${sibling.path.slice(sibling.path.lastIndexOf('/') + 1, -'.ts'.length)}.js';`,
      '',
    );
    for (const name of module.exports) {
      const helper = sibling.exports[Math.floor(next() * sibling.exports.length)]!;
      lines.push(
        `/** ${name}: walks the items, keeps the valid ones and registers the result. */`,
        `export function ${name}(input: { items: Array<{ id?: string; weight: number }> }, limit = 10): number {`,
        `  let total = 0;`,
        `  for (const item of input.items) {`,
        `    if (item.id === undefined || item.weight < 0) continue;`,
        `    total += item.weight * limit;`,
        `    map.set(item.id, String(total));`,
        `  }`,
        `  const cached = get('${name}');`,
        `  if (cached && total > limit) run(() => set('${name}', total));`,
        uses ? `  registerService({ name: '${name}', version: total, dependsOn: [] });` : `  // no registration for ${name}`,
        `  return total + ${helper}.length;`,
        `}`,
        '',
      );
    }
    lines.push(`export const registry${module.exports[0]} = new ServiceRegistry();`);
  } else if (module.language === 'py') {
    lines.push('from core.service_registry import register_service', `from .${sibling.path.slice(sibling.path.lastIndexOf('/') + 1, -'.py'.length)} import ${sibling.exports.join(', ')}`, '', '');
    for (const name of module.exports) {
      const helper = sibling.exports[Math.floor(next() * sibling.exports.length)]!;
      lines.push(`def ${name}(items, limit=10):`, `    """Sums the weights of the valid items."""`, `    total = 0`, `    for item in items:`, `        if item.get("id") is None:`, `            continue`, `        total += item["weight"] * limit`, `    register_service(name="${name}", version=total)`, `    return total + len(${helper}.__name__)`, '', '');
    }
  } else {
    lines.push(`package ${module.path.split('/')[1]!.replace(/\W/g, '')}`, '', 'import "fmt"', '');
    for (const name of module.exports) {
      const helper = sibling.exports[Math.floor(next() * sibling.exports.length)]!;
      lines.push(`// ${name} sums the weights of the valid items.`, `func ${name}(items []Item, limit int) int {`, `\ttotal := 0`, `\tfor _, item := range items {`, `\t\tif item.ID == "" {`, `\t\t\tcontinue`, `\t\t}`, `\t\ttotal += item.Weight * limit`, `\t}`, `\tfmt.Println("registerService", total, ${helper})`, `\treturn total`, `}`, '');
    }
  }
  return lines.join('\n');
}

function testSource(target: Module): string {
  const lines = [`import { createTestHarness, expectEventually } from '../../../test/helpers/harness.js';`, ''];
  for (const name of target.exports) lines.push(`test('${name} sums', () => {`, `  const harness = createTestHarness('${name}');`, `  expectEventually(() => ${name}({ items: [] }) === 0);`, `});`, '');
  return lines.join('\n');
}

function generatedSource(count: number): string {
  const lines = ['// Code generated by openapi-gen. DO NOT EDIT.', ''];
  for (let i = 0; i < count; i++) lines.push(`export function apiOperation${i}(body: unknown) { return fetch('/op/${i}', { body: JSON.stringify(body) }); }`);
  return lines.join('\n');
}
