import { client } from '../../runtime/actor.js';
import type { Router } from '../../runtime/calls.js';
import { ReikaError } from '../../runtime/errors.js';
import { pollTurn } from '../../runtime/poll-turn.js';
import { endpointOf, findProfile, type Config, type Profile } from '../config/load-config.js';
import { MODEL_IO, type EngineInfo } from '../model-io/protocol.js';
import { repoMapBudget } from '../indexer/budget.js';
import { connect, type Connection } from './connect.js';
import { recallEngine, rememberEngine, type RememberedEngine } from './engine-memory.js';

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
  /** Connections made from what the server said last time (engine-memory.ts), not yet asked again. */
  private readonly recalled = new WeakSet<Connection>();
  private refreshing: Promise<void> = Promise.resolve();

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

  /** Settles when the refresh of a connection made from memory has its answers (or there is none). */
  refreshed(): Promise<void> {
    return this.refreshing;
  }

  /**
   * The server is answering a request (its first event came): a connection made from memory is
   * asked again now, while the engine generates (see {@link refresh}).
   */
  answering(): void {
    const connection = this.settled;
    if (!connection || !this.recalled.has(connection)) return;
    this.recalled.delete(connection);
    this.probed.add(connection);
    this.refreshing = this.refresh(connection);
  }

  /**
   * A reply came while the window is unknown: the server is asked once more per connection. Ollama
   * reports the window only once the model is loaded, which the first request did. Found before
   * the next request (a few ms), it makes every later request append-only.
   */
  replied(): void {
    const connection = this.settled;
    if (connection && this.recalled.has(connection)) return this.answering();
    if (this.windowValue !== undefined || !connection || this.probed.has(connection)) return;
    this.probed.add(connection);
    client(this.router, MODEL_IO)
      .request({ type: 'discover', endpoint: connection.endpoint, fresh: true }, this.options())
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

  /**
   * A connection made from memory is being answered: the server is asked now (each endpoint once),
   * the window and the engine record follow what it says, and the memory is renewed.
   */
  private async refresh(connection: Connection): Promise<void> {
    try {
      const reply = await client(this.router, MODEL_IO).request({ type: 'discover', endpoint: connection.endpoint, fresh: true }, this.options());
      if (this.settled !== connection) return;
      const window = this.profileValue.contextWindow ?? reply.contextWindow;
      if (window !== undefined) this.windowValue = window;
      const engine = this.detectionOff() ? undefined : await client(this.router, MODEL_IO).request({ type: 'detect', endpoint: connection.endpoint, probeTemplate: this.config.engine.templateCheck }, this.options());
      if (this.settled !== connection) return;
      if (engine) this.engineValue = engine;
      this.remember(connection, { model: connection.endpoint.model, models: reply.models, ...(reply.contextWindow ? { contextWindow: reply.contextWindow } : {}), ...(engine?.kind === 'server' ? { engine } : {}) });
    } catch {
      // the session goes on with what it had
    }
  }

  private detectionOff(): boolean {
    return !this.config.engine.detect;
  }

  /** The memory of servers is kept with the bootstrap cache, and off with it. */
  private memoryOn(profile: Profile): boolean {
    return this.config.bootstrapCache && endpointOf(profile, this.config).engine !== 'embedded';
  }

  private remember(connection: Connection, facts: RememberedEngine): void {
    if (!this.memoryOn(this.profileValue) || (facts.engine && (facts.engine.unreachable || facts.engine.authFailed))) return;
    rememberEngine(connection.endpoint.baseUrl, this.configuredModels.get(connection) ?? '', facts);
  }

  /** The model each connection's profile named (memory is kept per base URL and configured model). */
  private readonly configuredModels = new WeakMap<Connection, string>();

  /** A connection from what the server said last time, or undefined (nothing kept, or it cannot serve this profile). */
  private fromMemory(profile: Profile): { connection: Connection; engine?: EngineInfo } | undefined {
    if (!this.memoryOn(profile)) return undefined;
    const endpoint = endpointOf(profile, this.config);
    const remembered = recallEngine(endpoint.baseUrl, endpoint.model);
    if (!remembered) return undefined;
    const window = profile.contextWindow ?? remembered.contextWindow;
    const connection: Connection = { profile: profile.name, endpoint: { ...endpoint, model: endpoint.model || remembered.model }, models: remembered.models, ...(window !== undefined ? { window } : {}) };
    return { connection, ...(remembered.engine && !this.detectionOff() ? { engine: remembered.engine } : {}) };
  }

  private connect(): Promise<Connection> {
    const profile = this.profileValue;
    const configuredModel = endpointOf(profile, this.config).model;
    const recalled = this.fromMemory(profile);
    const promise = recalled ? Promise.resolve(recalled.connection) : connect(this.router, profile, this.config, this.options());
    if (recalled) this.recalled.add(recalled.connection);
    promise.then((connection) => this.configuredModels.set(connection, configuredModel), () => {});
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
    const detection: Promise<EngineInfo | undefined> = recalled
      ? promise.then(() => {
          if (this.engineDetection === detection) this.engineValue = recalled.engine;
          return recalled.engine;
        })
      : promise.then(
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
    if (!engine && !this.config.engine.detect) {
      this.remember(connection, { model: connection.endpoint.model, models: connection.models, ...(connection.discoveredWindow ? { contextWindow: connection.discoveredWindow } : {}) });
      return undefined;
    }
    if (!engine) {
      try {
        // An interrupt that came while the session started is seen before detection's requests go (the scope then refuses them).
        await pollTurn();
        // The template probe runs in model-io's idle time, right after detection (engine-facts.ts uses it).
        engine = await client(this.router, MODEL_IO).request({ type: 'detect', endpoint: connection.endpoint, probeTemplate: this.config.engine.templateCheck }, this.options());
      } catch {
        return undefined;
      }
    }
    // A later /model may have started another detection meanwhile: only the newest one counts.
    if (current()) this.engineValue = engine;
    if (engine?.kind === 'server') this.remember(connection, { model: connection.endpoint.model, models: connection.models, ...(connection.discoveredWindow ? { contextWindow: connection.discoveredWindow } : {}), engine });
    return engine;
  }
}
