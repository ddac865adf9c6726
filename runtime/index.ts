export * from './abort.js';
export * from './actor.js';
export * from './calls.js';
export * from './clock.js';
export * from './envelope.js';
export * from './errors.js';
export * from './supervisor.js';
export type { ActorSpec, ExitInfo } from './transport.js';
