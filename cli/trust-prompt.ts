import { createInterface } from 'node:readline/promises';
import { declarationOf } from '../actors/settings/declarations.js';
import type { Config } from '../actors/config/load-config.js';
import { sourceLabel } from '../actors/config/sources.js';
import { readHooks } from '../actors/hooks/hook-config.js';

// Asked once per project, in the terminal, before the session starts (SPEC §16, §17): a project
// whose `.env` or settings would loosen safety or change the server, model or key is trusted only
// when the user says so, seeing what would change. Said yes, it is remembered for the project.

/**
 * What trusting the project would change, one line each: its settings values (keys named, never
 * shown), its allow rules and its hooks (the commands they would run). Its deny and ask rules
 * apply anyway.
 */
export function trustChanges(config: Config): string[] {
  const values = config.ignored
    .filter((item) => item.why !== 'user-only')
    .map((item) => {
      const secret = declarationOf(item.env)?.secret === true || item.env.endsWith('API_KEY');
      return `  ${secret ? `${item.env} (a key)` : `${item.env}=${item.value}`}  from ${sourceLabel(item.source)}`;
    });
  const loosening = config.settingsLayers
    .filter((layer) => !layer.trusted)
    .flatMap((layer) => {
      const allow = layer.permissions?.allow;
      const rules = Array.isArray(allow) ? allow.filter((rule): rule is string => typeof rule === 'string') : [];
      const hooks = readHooks(layer.hooks, layer.path).entries;
      return [...rules.map((rule) => `  allow ${rule}  from ${layer.path}`), ...hooks.map((hook) => `  hook ${hook.event}${hook.matcher ? ` (${hook.matcher})` : ''}: ${hook.command}  from ${layer.path}`)];
    });
  return [...values, ...loosening];
}

/** Asks on `output`, reads one line from `input`; true for yes. */
export async function askProjectTrust(config: Config, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<boolean> {
  const changes = trustChanges(config);
  if (changes.length === 0) return false;
  output.write(`reika: this project (${config.projectRoot}) has settings you have not trusted yet. Trusting it would apply:\n${changes.join('\n')}\n  and start its .mcp.json servers, if it has any, without asking.\n`);
  const lines = createInterface({ input, output, terminal: false });
  try {
    const answer = await lines.question('Trust this project? [y/N] ');
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    lines.close();
  }
}
