import { client } from '../../runtime/actor.js';
import type { Router } from '../../runtime/calls.js';
import { ReikaError } from '../../runtime/errors.js';
import { pollTurn } from '../../runtime/poll-turn.js';
import { endpointOf, findProfile, type Config, type Profile } from '../config.js';
import { MODEL_IO, type EngineInfo } from '../model-io/protocol.js';
import { repoMapBudget } from '../indexer/budget.js';
import { connect, type Connection } from './connect.js';

/**
 * The session's link to its model: the profile in use, its connection (model settled, window
 * known or not), and the one home of the context window and of the model's tool-call dialect.
 * Connections are never changed after they settle; the window found later (Ollama reports it only
 * once the model is loaded) is kept here, and the context manager asks for it.
 */
export class ModelLink {
  private profileValue: Profile;
  private connection: Promise<Connection>;
  /** The settled connection of the current profile. */
  private settled: Connection | undefined;
  /** The current connection's window: from the profile, the server at connect, or asked again after a first reply. */
  private windowValue: number | undefined;
  /** Connections whose unknown window was asked again after a first reply. */
  private readonly probed = new WeakSet<Connection>();
  private dialectValue: string | undefined;
  /** What the engine said of itself (detected beside the bootstrap scan, never before a request). */
  private engineValue: EngineInfo | undefined;
  private engineDetection: Promise<EngineInfo | undefined> = Promise.resolve(undefined);

  /**
   * `scope`: the abort scope of every request the link makes (`discover`, `detect`); aborting it (the
   * session closing) cancels those in flight and refuses later ones.
   */
  constructor(
    private readonly router: Router,
    private readonly config: Config,
    private readonly scope?: string,
  ) {
    this.profileValue = config.active;
    this.connection = this.connect();
  }

  get profile(): Profile {
    return this.profileValue;
  }

  /** The context window in tokens, once known. */
  get window(): number | undefined {
    return this.windowValue;
  }

  /** The window to show: the one known, else (before the connection settles) the profile's configured one. */
  get shownWindow(): number | undefined {
    return this.windowValue ?? this.profileValue.contextWindow;
  }

  /** The repo map's budget (`pinned`: REIKA_REPO_MAP_BUDGET) needs the window; discovery is only waited for when neither is configured. */
  repoMapBudget(pinned: number | undefined): number | Promise<number> {
    const window = this.profileValue.contextWindow;
    if (pinned !== undefined || window !== undefined) return repoMapBudget(window, pinned);
    return this.ready.then((c) => repoMapBudget(c.window), () => repoMapBudget(undefined));
  }

  /** How the model writes its tool calls, as last seen (`native` or a text dialect's name); unknown until it made a call. */
  get dialect(): string | undefined {
    return this.dialectValue;
  }

  /** The engine record, once detection answered (undefined before, or when it could not run). */
  get engine(): EngineInfo | undefined {
    return this.engineValue;
  }

  /** Settles with the engine record when detection is done (`reika doctor` waits for it). */
  engineDetected(): Promise<EngineInfo | undefined> {
    return this.engineDetection;
  }

  noteDialect(dialect: string | undefined): void {
    if (dialect) this.dialectValue = dialect;
  }

  /** Settles when the current profile is connected; rejects with a one-sentence error. */
  get ready(): Promise<Connection> {
    return this.connection;
  }

  /** The connection; a failed one is tried again (the server may have come up since). */
  connectionOrRetry(): Promise<Connection> {
    this.connection = this.connection.catch(() => this.connect());
    return this.connection;
  }

  /**
   * A reply came while the window is unknown: the server is asked once more per connection. Ollama
   * reports the window only once the model is loaded, which the first request did. Found before
   * the next request (a few ms), it makes every later request append-only.
   */
  replied(): void {
    const connection = this.settled;
    if (this.windowValue !== undefined || !connection || this.probed.has(connection)) return;
    this.probed.add(connection);
    client(this.router, MODEL_IO)
      .request({ type: 'discover', endpoint: connection.endpoint }, this.options())
      .then((reply) => {
        if (reply.contextWindow === undefined || this.windowValue !== undefined || this.settled !== connection) return;
        this.windowValue = reply.contextWindow;
      })
      .catch(() => {});
  }

  /** `/model NAME`: another profile, or a model the current server lists; refused at once otherwise. */
  async switchTo(name: string): Promise<Connection> {
    const named = findProfile(this.config, name);
    if (!named) {
      // A model name is checked against the server's list at once, not at the next message.
      const models = await this.serverModels();
      if (models.length > 0 && !models.includes(name)) {
        const profiles = this.config.profiles.map((p) => p.name).join(', ');
        throw new ReikaError('REIKA_ERR_MODEL_NOT_FOUND', `the server at ${this.profileValue.baseUrl} has no model "${name}"; it offers: ${models.slice(0, 20).join(', ')}${models.length > 20 ? ', …' : ''} (profiles: ${profiles})`);
      }
    }
    this.profileValue = named ?? { ...this.profileValue, model: name };
    this.dialectValue = undefined;
    this.connection = this.connect();
    return this.connection;
  }

  /** The models the current profile's server lists (`/v1/models`); empty when it lists none. */
  async serverModels(): Promise<string[]> {
    const reply = await client(this.router, MODEL_IO).request({ type: 'discover', endpoint: endpointOf(this.profileValue, this.config) }, this.options());
    return reply.models;
  }

  private options(): { scope?: string } {
    return this.scope ? { scope: this.scope } : {};
  }

  private connect(): Promise<Connection> {
    const profile = this.profileValue;
    const promise = connect(this.router, profile, this.config, this.options());
    promise.then(
      (connection) => {
        // A later /model may have replaced the profile meanwhile: only settle the one asked for.
        if (this.profileValue !== profile) return;
        this.profileValue = { ...profile, model: connection.endpoint.model };
        this.settled = connection;
        this.windowValue = connection.window;
      },
      () => {},
    );
    this.engineValue = undefined;
    const detection: Promise<EngineInfo | undefined> = promise.then(
      (connection) => this.detect(connection, () => this.engineDetection === detection),
      () => undefined,
    );
    this.engineDetection = detection;
    return promise;
  }

  /**
   * Asks model-io which engine serves the connection, once it is settled: beside the bootstrap
   * scan, so the first request never waits for it. The embedded engine's record came with the connection.
   */
  private async detect(connection: Connection, current: () => boolean): Promise<EngineInfo | undefined> {
    let engine: EngineInfo | undefined = connection.engine;
    const off = (name: string) => /^(off|0|no|false)$/i.test(this.config.values[name] ?? '');
    if (!engine && off('REIKA_DETECT_ENGINE')) return undefined;
    if (!engine) {
      try {
        // An interrupt that came while the session started is seen before detection's requests go (the scope then refuses them).
        await pollTurn();
        // The template probe runs in model-io's idle time, right after detection (engine-facts.ts uses it).
        engine = await client(this.router, MODEL_IO).request({ type: 'detect', endpoint: connection.endpoint, probeTemplate: !off('REIKA_TEMPLATE_CHECK') }, this.options());
      } catch {
        return undefined;
      }
    }
    // A later /model may have started another detection meanwhile: only the newest one counts.
    if (current()) this.engineValue = engine;
    return engine;
  }
}
