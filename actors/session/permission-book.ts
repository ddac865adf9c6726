import { readHooks, type HookEntry } from '../hooks/hook-config.js';
import { describeRule, shortPath } from '../tool-executor/rules/describe-rule.js';
import { addRules, removeRule } from '../config/settings-rules.js';
import { parseRule, type RuleData, type RuleEffect, type RuleSource } from '../tool-executor/rules/rule.js';

/** One settings file as the configuration lists it (`Config.settingsLayers`). */
export interface SettingsLayerInput {
  scope: RuleSource['scope'];
  /** The file's absolute path. */
  path: string;
  /** Its allow rules and hooks apply (always for `user`; for a project's files, once it is trusted). */
  trusted: boolean;
  permissions?: Readonly<Record<string, unknown>>;
  hooks?: Readonly<Record<string, unknown>>;
}

/** A rule as `/permissions` lists it. */
export interface ListedRule extends RuleData {
  /** False for an untrusted project's allow rule (written, not in force). */
  inForce: boolean;
}

const EFFECTS: readonly RuleEffect[] = ['deny', 'ask', 'allow'];

/**
 * The permission rules and hooks of a session, from its settings layers (SPEC §17), and the one
 * place that decides which of them are in force — trust is data:
 * - the user's file: everything;
 * - a project's files (`.reika/settings.json`, `.reika/settings.local.json`): deny and ask rules
 *   always (a project may tighten), allow rules and hooks only once the project is trusted (they
 *   loosen, or run code); what is set aside is said in one line.
 * Rules added during the session ("Always", `/permissions add`) are written to their file and in
 * force at once; removed ones stop at once.
 */
export class PermissionBook {
  private readonly rules: ListedRule[] = [];
  /** Hooks in force, in layer order. */
  readonly hooks: HookEntry[] = [];
  /** One line per thing read but not used (an unreadable rule, a hook problem, an untrusted project's loosening). */
  readonly notes: string[] = [];

  constructor(private readonly layers: readonly SettingsLayerInput[]) {
    for (const layer of layers) {
      const where = shortPath(layer.path);
      const block = layer.permissions;
      let setAside = 0;
      for (const effect of EFFECTS) {
        const list = block?.[effect];
        if (list === undefined) continue;
        if (!Array.isArray(list)) {
          this.notes.push(`${where}: permissions.${effect} is not a list of rules; ignored`);
          continue;
        }
        for (const rule of list) {
          if (typeof rule !== 'string') {
            this.notes.push(`${where}: permissions.${effect} holds ${JSON.stringify(rule)}, not a rule; ignored`);
            continue;
          }
          try {
            parseRule(rule);
          } catch (error) {
            this.notes.push(`${where}: permissions.${effect}: ${(error as Error).message}; ignored`);
            continue;
          }
          const inForce = effect !== 'allow' || layer.trusted;
          if (!inForce) setAside++;
          this.rules.push({ effect, rule, scope: layer.scope, file: layer.path, inForce });
        }
      }
      const { entries, problems } = readHooks(layer.hooks, where);
      this.notes.push(...problems);
      if (layer.trusted) this.hooks.push(...entries);
      if (!layer.trusted && (setAside > 0 || entries.length > 0)) {
        const what = [setAside > 0 ? `${setAside} allow rule${setAside === 1 ? '' : 's'}` : '', entries.length > 0 ? `${entries.length} hook${entries.length === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
        this.notes.push(`${where}: the project is not trusted, so its ${what} ${setAside + entries.length === 1 ? 'is' : 'are'} ignored (its deny and ask rules apply); trust the project to use them`);
      }
    }
  }

  /** The rules in force, as every tool call carries them. */
  inForce(): RuleData[] {
    return this.rules.filter((rule) => rule.inForce).map(({ effect, rule, scope, file }) => ({ effect, rule, scope, file }));
  }

  /** Every rule read, in force or not, deny first. */
  list(): ListedRule[] {
    return EFFECTS.flatMap((effect) => this.rules.filter((rule) => rule.effect === effect));
  }

  /** The file of a scope (where "Always" and `/permissions add` write), if the configuration names one. */
  fileOf(scope: RuleSource['scope']): string | undefined {
    return this.layers.find((layer) => layer.scope === scope)?.path;
  }

  /**
   * Writes `rules` to the file of `scope` and puts them in force now (the person asked for them,
   * even where the project is not trusted yet). Returns the line to show; throws a one-line error.
   */
  add(scope: RuleSource['scope'], effect: RuleEffect, rules: readonly string[]): string {
    const file = this.fileOf(scope);
    if (!file) throw new Error(`no ${scope} settings file is known to this session`);
    for (const rule of rules) parseRule(rule);
    const added = addRules(file, effect, rules);
    for (const rule of rules) {
      const known = this.rules.find((r) => r.effect === effect && r.rule === rule && r.file === file);
      if (known) known.inForce = true;
      else this.rules.push({ effect, rule, scope, file, inForce: true });
    }
    const shown = rules.join(', ');
    // An untrusted project's allow rules are set aside when the next session reads them.
    const later = effect === 'allow' && this.layers.find((layer) => layer.path === file)?.trusted === false ? '; this project is not trusted, so later sessions use it once you trust the project' : '';
    return `${added.length === 0 ? `${shown} already in ${shortPath(file)} (${effect})` : `${effect} ${shown} → ${shortPath(file)}`}${later}`;
  }

  /** Takes a rule out of the file(s) it is in (the one of `scope` only, when given). Returns the line to show. */
  remove(effect: RuleEffect, rule: string, scope?: RuleSource['scope']): string {
    const matching = this.rules.filter((r) => r.effect === effect && r.rule === rule && (scope === undefined || r.scope === scope));
    if (matching.length === 0) throw new Error(`no ${effect} rule ${rule}${scope ? ` in the ${scope} settings` : ''}; /permissions lists them`);
    for (const found of matching) {
      removeRule(found.file, effect, rule);
      this.rules.splice(this.rules.indexOf(found), 1);
    }
    return matching.map((found) => `removed ${effect} ${describeRule({ rule, source: { scope: found.scope, file: found.file } })}`).join('; ');
  }
}
