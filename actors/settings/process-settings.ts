import { SETTINGS, type SettingDeclaration } from './declarations.js';
import { parseBoolean } from './parse.js';

// The settings a thread or process reads from its own environment (`from: 'environment'` in
// `declarations.ts`): they are needed before any file is read (the bootstrap cache, startup
// tracing) and no file may set them. A value that does not parse counts as the default.

type EnvironmentSwitch = Extract<(typeof SETTINGS)[number], { from: 'environment'; type: { kind: 'boolean' } }>['env'];

/** Whether an environment-only switch is on (`REIKA_BOOTSTRAP_CACHE`, `REIKA_TRACE_STARTUP`). */
export function environmentSwitch(name: EnvironmentSwitch, env: Record<string, string | undefined> = process.env): boolean {
  const declaration: SettingDeclaration = SETTINGS.find((setting) => setting.env === name)!;
  const value = env[name];
  return (value ? parseBoolean(value) : undefined) ?? parseBoolean(declaration.default!)!;
}

type EnvironmentText = Extract<(typeof SETTINGS)[number], { from: 'environment'; type: { kind: 'text' } }>['env'];

/** An environment-only text setting (`REIKA_EMBEDDED_SCRIPT`), undefined when unset or empty. */
export function environmentText(name: EnvironmentText, env: Record<string, string | undefined> = process.env): string | undefined {
  return env[name] || undefined;
}
