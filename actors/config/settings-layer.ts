/** `user`: `~/.config/reika/settings.json`; `project`: `.reika/settings.json`; `local`: `.reika/settings.local.json`. */
export type SettingsScope = 'user' | 'project' | 'local';

/**
 * One settings file as the rules and hooks see it (SPEC §17): its scope, where it is, whether
 * reika trusts it, and its `permissions` and `hooks` blocks exactly as written. The configuration
 * lists every layer, present or not, from the weakest to the strongest (user, project, local):
 * `Config.settingsLayers`. Parsing and applying the two blocks is the rules engine's; everything
 * else in a settings file is read by `actors/config/` into the typed {@link Config}.
 */
export interface SettingsLayer {
  scope: SettingsScope;
  /** The file's absolute path (where "Always" writes a rule of this scope). */
  path: string;
  /** Whether the file exists and parsed as a JSON object (a broken file counts as absent, with a note). */
  exists: boolean;
  /**
   * Whether its loosening parts apply: always for `user`; for `project` and `local`, once the
   * project is trusted (`trust.ts`). Deny and ask rules apply whatever this says.
   */
  trusted: boolean;
  /** The `permissions` block as written (an object, else undefined). */
  permissions?: Readonly<Record<string, unknown>>;
  /** The `hooks` block as written (an object, else undefined). */
  hooks?: Readonly<Record<string, unknown>>;
}
