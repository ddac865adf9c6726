import { homedir } from 'node:os';
import { compileCommandPattern, type CommandPattern } from './command-pattern.js';
import { commandSubject, type CommandSubject } from './command-subject.js';
import { compilePathPattern, type PathPattern } from './path-pattern.js';
import { coversTool, parseRule, RuleSyntaxError, type RuleData, type RuleEffect, type RuleSource } from './rule.js';

/** What a call is, as rules see it. */
export interface RuleSubject {
  /** reika's tool name (`bash`, `edit`, `mcp__github__create_issue`). */
  tool: string;
  /** `bash`: the command line. */
  command?: string;
  /** Path tools: the absolute path(s) the call touches (as written and through symlinks). */
  paths?: readonly string[];
  /** `fetch`: the host name of the URL. */
  domain?: string;
}

/** The rule that decided a call, and where it was written. */
export interface RuleMatch {
  effect: RuleEffect;
  rule: string;
  source: RuleSource;
}

interface Compiled {
  data: RuleData;
  tools: readonly string[];
  kind: 'command' | 'path' | 'domain' | 'tool';
  /** Undefined: every use of the tools. */
  command?: CommandPattern;
  path?: PathPattern;
  domain?: string;
}

/**
 * The permission rules of a session, compiled once, asked per tool call (SPEC §17): deny beats
 * ask, ask beats allow, and a call no rule names is left to the approvals mode. Which rules are
 * here at all (a project's allow rules only when it is trusted) is decided before, by
 * `activeRules` in `layers.ts`.
 */
export class PermissionRules {
  private constructor(
    private readonly root: string,
    private readonly byEffect: Record<RuleEffect, Compiled[]>,
    /** One line per rule that could not be read, naming its file. */
    readonly problems: readonly string[],
  ) {}

  /** Compiles rules for a project root; a rule that cannot be read is left out with a problem line. */
  static compile(rules: readonly RuleData[], root: string, home = homedir()): PermissionRules {
    const byEffect: Record<RuleEffect, Compiled[]> = { deny: [], ask: [], allow: [] };
    const problems: string[] = [];
    for (const data of rules) {
      try {
        const parsed = parseRule(data.rule);
        const compiled: Compiled = { data, tools: parsed.tools, kind: parsed.kind };
        if (parsed.specifier !== undefined) {
          if (parsed.kind === 'command') compiled.command = compileCommandPattern(parsed.specifier);
          else if (parsed.kind === 'path') compiled.path = compilePathPattern(parsed.specifier, root, home);
          else if (parsed.kind === 'domain') compiled.domain = parsed.specifier;
        }
        byEffect[data.effect].push(compiled);
      } catch (error) {
        const why = RuleSyntaxError.isInstance(error) ? error.message : String(error);
        problems.push(`${data.file}: permissions.${data.effect}: ${why}; the rule is ignored`);
      }
    }
    return new PermissionRules(root, byEffect, problems);
  }

  get size(): number {
    return this.byEffect.deny.length + this.byEffect.ask.length + this.byEffect.allow.length;
  }

  /** The rule that decides `subject`, or undefined when none names it. */
  check(subject: RuleSubject): RuleMatch | undefined {
    let parsed: CommandSubject | undefined;
    const command = () => (parsed ??= commandSubject(subject.command ?? '', this.root));
    for (const effect of ['deny', 'ask'] as const) {
      for (const rule of this.byEffect[effect]) {
        if (coversTool(rule.tools, subject.tool) && this.catches(rule, subject, command)) return match(rule);
      }
    }
    const allows = this.byEffect.allow.filter((rule) => coversTool(rule.tools, subject.tool));
    if (allows.length === 0) return undefined;
    const whole = allows.find((rule) => !rule.command && !rule.path && !rule.domain);
    if (whole) return match(whole);
    if (subject.command !== undefined) return this.allowCommand(allows, command());
    if (subject.paths !== undefined && subject.paths.length > 0) {
      const rule = allows.find((r) => r.path && subject.paths!.every((path) => r.path!(path)));
      return rule && match(rule);
    }
    if (subject.domain !== undefined) {
      const rule = allows.find((r) => r.domain && domainMatches(r.domain, subject.domain!));
      return rule && match(rule);
    }
    return undefined;
  }

  /** Deny and ask: any simple command (or the line as written), any path, the domain. */
  private catches(rule: Compiled, subject: RuleSubject, command: () => CommandSubject): boolean {
    if (!rule.command && !rule.path && !rule.domain) return true;
    if (rule.command && subject.command !== undefined) {
      const test = rule.command;
      const parsed = command();
      return test(parsed.line) || parsed.commands.some((texts) => texts.any.some(test));
    }
    if (rule.path && subject.paths) return subject.paths.some((path) => rule.path!(path));
    if (rule.domain && subject.domain !== undefined) return domainMatches(rule.domain, subject.domain);
    return false;
  }

  /** Allow covers a command line when every simple command that does something matches an allow rule. */
  private allowCommand(allows: Compiled[], parsed: CommandSubject): RuleMatch | undefined {
    if (parsed.opaque() !== undefined) return undefined;
    let first: Compiled | undefined;
    for (const texts of parsed.commands) {
      if (texts.neutral) continue;
      const rule = allows.find((r) => r.command && texts.allow.some(r.command));
      if (!rule) return undefined;
      first ??= rule;
    }
    return first && match(first);
  }
}

/** `example.com` matches that host; `*.example.com` its subdomains (and itself). */
function domainMatches(rule: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (rule.startsWith('*.')) return name === rule.slice(2) || name.endsWith(rule.slice(1));
  return name === rule;
}

function match(rule: Compiled): RuleMatch {
  return { effect: rule.data.effect, rule: rule.data.rule, source: { scope: rule.data.scope, file: rule.data.file } };
}
