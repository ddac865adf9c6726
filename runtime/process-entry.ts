import { Socket } from 'node:net';
import { encodeFrame, FrameDecoder } from './codec.js';
import type { Envelope } from './envelope.js';
import { loadDefinition, runHost } from './host.js';

/** Entry point of a child-process actor: envelopes arrive as msgpackr frames on fd 3. */
const { module, name, options } = JSON.parse(process.argv[2] ?? '{}') as { module: string; name: string; options: unknown };
const channel = new Socket({ fd: 3, readable: true, writable: true });
let disconnected: (() => void) | undefined;
channel.on('error', () => disconnected?.());
channel.on('close', () => disconnected?.());

const definition = await loadDefinition(module);
await runHost(
  {
    post: (message: Envelope) => {
      if (channel.writable) channel.write(encodeFrame(message));
    },
    onMessage: (listener) => {
      const decoder = new FrameDecoder(listener);
      channel.on('data', (chunk: Buffer) => decoder.push(chunk));
    },
    onDisconnect: (listener) => {
      disconnected = listener;
    },
  },
  name,
  definition,
  options,
  () => {
    channel.end(() => process.exit(0));
    setTimeout(() => process.exit(0), 200).unref();
  },
);
