import { loadConfig, type Config } from '../actors/config/load-config.js';
import { locateSession, openSession, resumedConfig, type LocatedSession, type OpenedSession } from './open-session.js';
import { applySessionFlags, sessionFolder, type SessionFlags } from './session-flags.js';

/** What a session starts from, interactive or headless. */
export interface SessionStart {
  /** The configuration it runs with: the flags applied, a resumed session's profile kept. */
  config: Config;
  /** The recorder its transcript goes to, and the session it goes on with, if any. */
  opened: OpenedSession;
  /** One line each, to show once: settings ignored, where a resumed session goes on, a torn transcript. */
  notes: string[];
}

/** What differs between the terminal and `reika -p`. */
export interface BeginOptions {
  /** Told when the transcript stops recording (a write error). */
  onProblem(message: string): void;
  /** `--resume` without an id: the session to go on with, undefined when the person chose none. */
  chooseSession(cwd: string): Promise<string | undefined>;
  /**
   * Asked about a project that is not trusted, once its configuration is read: true when the
   * person trusted it now (and it is remembered), so its settings are read again, trusted.
   */
  trustProject?(loaded: Config): Promise<boolean>;
}

/**
 * The one way a session is opened from the command line: `--cwd` is as if reika had been started
 * there (its `.env`, its index); `--continue` / `--resume` find the stored session, and reika goes
 * on in the folder it ran in; then the configuration is read there, the flags applied, and the
 * recorder attached. Undefined when the person chose no session to resume. Throws a UsageError,
 * ConfigError or SessionChoiceError, one sentence each.
 */
export async function beginSession(flags: SessionFlags, options: BeginOptions): Promise<SessionStart | undefined> {
  const notes: string[] = [];
  process.chdir(sessionFolder(flags));
  let resume = flags.resume;
  if (resume === true) {
    resume = await options.chooseSession(process.cwd());
    if (resume === undefined) return undefined;
  }
  let located: LocatedSession | undefined;
  if (flags.continue || resume !== undefined) {
    located = locateSession(flags.continue ? { continue: true } : { resume: resume! }, process.cwd(), notes);
    if (located && located.root !== process.cwd()) process.chdir(located.root);
  }
  let loaded = loadConfig({ cwd: process.cwd() });
  if (!loaded.trusted && options.trustProject && (await options.trustProject(loaded))) loaded = loadConfig({ cwd: process.cwd(), trusted: true });
  let config = applySessionFlags(loaded, flags);
  // Broken settings files, unknown keys, what an untrusted project may not set: one line each.
  notes.push(...config.notes);
  const opened = openSession(located, config, { onProblem: options.onProblem });
  notes.push(...opened.notes);
  config = resumedConfig(config, opened.resume, flags.profile);
  return { config, opened, notes };
}
