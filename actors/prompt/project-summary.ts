import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** A short description of the project for the system prompt, read from the index and a few root files. */
export interface ProjectSummary {
  name: string;
  /** Most used languages first, with file counts from the index. */
  languages: { name: string; files: number }[];
  packageManager?: string;
  testCommand?: string;
}

const LANGUAGES: Record<string, string> = {
  ts: 'TypeScript', tsx: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript',
  js: 'JavaScript', jsx: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript',
  py: 'Python', go: 'Go', rs: 'Rust', java: 'Java', cs: 'C#', kt: 'Kotlin', kts: 'Kotlin',
  swift: 'Swift', c: 'C', h: 'C/C++', cc: 'C++', cpp: 'C++', cxx: 'C++', hpp: 'C++', m: 'Objective-C', mm: 'Objective-C',
  rb: 'Ruby', php: 'PHP', lua: 'Lua', sh: 'Shell', bash: 'Shell', zsh: 'Shell', scala: 'Scala', ex: 'Elixir', exs: 'Elixir',
  dart: 'Dart', zig: 'Zig', hs: 'Haskell', ml: 'OCaml', clj: 'Clojure', vue: 'Vue', svelte: 'Svelte',
};

/** At most this many languages are named. */
const MAX_LANGUAGES = 5;

function readText(root: string, file: string): string | undefined {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return undefined;
  }
}

function readJson(root: string, file: string): Record<string, unknown> | undefined {
  const text = readText(root, file);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Builds the summary; `paths` are the file index (relative, `/`-separated). */
export function summarizeProject(root: string, paths: readonly string[]): ProjectSummary {
  const has = (file: string) => existsSync(join(root, file));
  const counts = new Map<string, number>();
  for (const path of paths) {
    const dot = path.lastIndexOf('.');
    if (dot < 0 || dot < path.lastIndexOf('/')) continue;
    const language = LANGUAGES[path.slice(dot + 1).toLowerCase()];
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const languages = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_LANGUAGES)
    .map(([name, files]) => ({ name, files }));

  const pkg = readJson(root, 'package.json');
  let name: string | undefined = typeof pkg?.name === 'string' ? pkg.name : undefined;
  let packageManager: string | undefined;
  let testCommand: string | undefined;

  if (pkg) {
    packageManager = has('pnpm-lock.yaml') ? 'pnpm' : has('yarn.lock') ? 'yarn' : has('bun.lockb') || has('bun.lock') ? 'bun' : 'npm';
    const scripts = pkg.scripts;
    const test = scripts && typeof scripts === 'object' ? (scripts as Record<string, unknown>).test : undefined;
    if (typeof test === 'string' && !/no test specified/.test(test)) testCommand = packageManager === 'bun' ? 'bun run test' : `${packageManager} test`;
  } else if (has('Cargo.toml')) {
    packageManager = 'cargo';
    testCommand = 'cargo test';
    name ??= /^\s*name\s*=\s*"([^"]+)"/m.exec(readText(root, 'Cargo.toml') ?? '')?.[1];
  } else if (has('go.mod')) {
    packageManager = 'go modules';
    testCommand = 'go test ./...';
    name ??= /^module\s+(\S+)/m.exec(readText(root, 'go.mod') ?? '')?.[1];
  } else if (has('pyproject.toml') || has('requirements.txt') || has('setup.py')) {
    packageManager = has('uv.lock') ? 'uv' : has('poetry.lock') ? 'poetry' : 'pip';
    const pyproject = readText(root, 'pyproject.toml') ?? '';
    name ??= /^\s*name\s*=\s*"([^"]+)"/m.exec(pyproject)?.[1];
    if (/pytest/.test(pyproject) || has('pytest.ini') || has('conftest.py') || paths.some((p) => /(^|\/)test_[^/]*\.py$/.test(p))) {
      testCommand = packageManager === 'uv' ? 'uv run pytest' : 'pytest';
    }
  } else if (has('pom.xml')) {
    packageManager = 'maven';
    testCommand = 'mvn test';
  } else if (has('build.gradle') || has('build.gradle.kts')) {
    packageManager = 'gradle';
    testCommand = has('gradlew') ? './gradlew test' : 'gradle test';
  } else if (has('Gemfile')) {
    packageManager = 'bundler';
    if (has('Rakefile')) testCommand = 'bundle exec rake test';
  } else if (has('composer.json')) {
    packageManager = 'composer';
  } else if (has('Package.swift')) {
    packageManager = 'swift package manager';
    testCommand = 'swift test';
  }
  if (!testCommand && /^test\s*:/m.test(readText(root, 'Makefile') ?? '')) testCommand = 'make test';
  return { name: name ?? basename(root), languages, packageManager, testCommand };
}

/** The summary as prompt lines. */
export function renderSummary(summary: ProjectSummary): string {
  const lines = [`Project: ${summary.name}`];
  if (summary.languages.length > 0) lines.push(`Languages: ${summary.languages.map((l) => `${l.name} (${l.files} files)`).join(', ')}`);
  if (summary.packageManager) lines.push(`Package manager: ${summary.packageManager}`);
  if (summary.testCommand) lines.push(`Test command: ${summary.testCommand}`);
  return lines.join('\n');
}
