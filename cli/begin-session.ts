import { loadConfig, type Config } from '../actors/config/load-config.js';
import { locateSession, openSession, resumedConfig, type SessionChoice, type OpenedSession } from './open-session.js';
import { applySessionFlags, sessionFolder, type SessionFlags } from './session-flags.js';

/** What a session starts from: the terminal, `reika -p` or an editor's `session/new` / `session/load`. */
export interface SessionStart {
  /** The folder it runs in: the one asked for, or the folder a resumed session ran in. */
  root: string;
  /** The configuration it runs with: the flags applied, a resumed session's profile kept. */
  config: Config;
  /** The recorder its transcript goes to, and the session it goes on with, if any. */
  opened: OpenedSession;
  /** One line each, to show once: settings ignored, where a resumed session goes on, a torn transcript. */
  notes: string[];
}

/** What differs between the callers of {@link startSessionAt}. */
export interface StartOptions {
  /** The stored session to go on with; none starts a new one. */
  choice?: SessionChoice;
  /** The new session's id (an editor's `session/new` answers with it before the first turn); drawn otherwise. */
  id?: string;
  /** Told when the transcript stops recording (a write error). */
  onProblem(message: string): void;
  /**
   * Asked about a project that is not trusted, once its configuration is read: true when the
   * person trusted it now (and it is remembered), so its settings are read again, trusted.
   */
  trustProject?(loaded: Config): Promise<boolean>;
}

/** What differs between the terminal and `reika -p`. */
export interface BeginOptions extends Omit<StartOptions, 'choice' | 'id'> {
  /** `--resume` without an id: the session to go on with, undefined when the person chose none. */
  chooseSession(cwd: string): Promise<string | undefined>;
}

/**
 * The one way a session is opened at `folder`, without moving the process there (an editor's
 * sessions share one process): the stored session is found, and goes on in the folder it ran in;
 * then the configuration is read there, the flags applied, the recorder attached and a resumed
 * session's profile kept. Throws a ConfigError or SessionChoiceError, one sentence each.
 */
export async function startSessionAt(folder: string, flags: SessionFlags, options: StartOptions): Promise<SessionStart> {
  const notes: string[] = [];
  const located = options.choice ? locateSession(options.choice, folder, notes) : undefined;
  const root = located?.root ?? folder;
  let loaded = loadConfig({ cwd: root });
  if (!loaded.trusted && options.trustProject && (await options.trustProject(loaded))) loaded = loadConfig({ cwd: root, trusted: true });
  const config = applySessionFlags(loaded, flags);
  // Broken settings files, unknown keys, what an untrusted project may not set: one line each.
  notes.push(...config.notes);
  const opened = openSession(located, config, { onProblem: options.onProblem, id: options.id });
  notes.push(...opened.notes);
  return { root, config: resumedConfig(config, opened.resume, flags.profile), opened, notes };
}

/**
 * A session opened from the command line: `--cwd` is as if reika had been started there (its
 * `.env`, its index); `--continue` / `--resume` find the stored session, and reika moves to the
 * folder it runs in ({@link startSessionAt}). Undefined when the person chose no session to
 * resume. Throws a UsageError, ConfigError or SessionChoiceError, one sentence each.
 */
export async function beginSession(flags: SessionFlags, options: BeginOptions): Promise<SessionStart | undefined> {
  process.chdir(sessionFolder(flags));
  let resume = flags.resume;
  if (resume === true) {
    resume = await options.chooseSession(process.cwd());
    if (resume === undefined) return undefined;
  }
  const choice: SessionChoice | undefined = flags.continue ? { continue: true } : resume !== undefined ? { resume } : undefined;
  const start = await startSessionAt(process.cwd(), flags, { ...options, ...(choice ? { choice } : {}) });
  process.chdir(start.root);
  return start;
}
