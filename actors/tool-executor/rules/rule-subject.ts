import { resolveToolPath, realPathOfNearest } from '../files/paths.js';
import type { RuleSubject } from './permission-rules.js';

/** Tools whose `path` argument (default the project root) is what path rules look at. */
const PATH_TOOLS = new Set(['read', 'list', 'glob', 'grep', 'edit', 'write', 'multi_edit', 'multiedit']);
/** Tools that read a whole folder. */
const SEARCH_TOOLS = new Set(['list', 'glob', 'grep']);
/** The name of "some file inside": no pattern names it, `**` and `*` match it. */
const INSIDE = '\u0000';

/**
 * What rules look at in a call's arguments: bash's `command`, a file tool's `path` (as written and
 * through symlinks, so a link cannot walk around a deny rule), a fetch's host. Any other tool is
 * named by its tool name alone.
 */
export function ruleSubjectOf(tool: string, args: unknown, root: string): RuleSubject {
  const fields = args !== null && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  if (tool === 'bash' && typeof fields.command === 'string') return { tool, command: fields.command };
  if (PATH_TOOLS.has(tool)) {
    const written = resolveToolPath(root, typeof fields.path === 'string' && fields.path !== '' ? fields.path : '.');
    const real = realPathOfNearest(written);
    const paths = real === written ? [written] : [written, real];
    // A search of a folder reads what is inside it: a rule on its contents (`secrets/**`) covers it.
    if (SEARCH_TOOLS.has(tool)) paths.push(...paths.map((path) => `${path}/${INSIDE}`));
    return { tool, paths };
  }
  if (typeof fields.url === 'string') {
    const host = hostOf(fields.url);
    if (host !== undefined) return { tool, domain: host };
  }
  return { tool };
}

/** The host name of a URL, or undefined when it is not one. */
export function hostOf(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === '' ? undefined : host.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}
