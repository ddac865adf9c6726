import type { Router } from '../../runtime/calls.js';
import { profilePrefix } from '../settings/declarations.js';
import type { Endpoint } from '../model-io/protocol.js';
import { describeImage } from './describe.js';
import type { Image } from './image.js';
import { IMAGE_TOKENS } from './image.js';
import { OCR_UNAVAILABLE_ON_LINUX, ocrImage } from './ocr.js';

// Turns an attached image into what the model gets: text from a vision model (REIKA_VISION_MODEL)
// or OCR, or — in native mode, for a pasted image — the image itself for one turn.

/** What recognition reads of the configuration (the session hands its whole `Config`). */
export interface VisionConfig {
  /** The describing vision model (REIKA_VISION_*); OCR's languages. */
  vision: { model?: string; baseUrl?: string; apiKey?: string; ocrLangs?: string[] };
  requestTimeoutMs: number;
}

/** What recognition reads of the profile in use. */
export interface VisionProfile {
  /** `default` for the plain REIKA_* settings, else the profile's name (its key variable is named after it). */
  name: string;
  baseUrl: string;
  apiKey?: string;
  /** `native`: pasted images go to the model as images (REIKA_<NAME>_VISION). */
  vision?: 'native';
}

export interface ImageContext {
  config: VisionConfig;
  /** The profile in use (its VISION setting decides native mode). */
  profile: VisionProfile;
  router: Router;
  /** The turn's abort scope: its one abort stops the vision model's request. */
  scope?: string;
  /** The turn's own signal, for work outside the actors (OCR). */
  signal?: AbortSignal;
  platform?: NodeJS.Platform;
}

/** The vision model's endpoint; URL and key fall back to the profile's. */
export function visionEndpoint(context: Pick<ImageContext, 'config' | 'profile'>): Endpoint | undefined {
  const { vision } = context.config;
  if (!vision.model) return undefined;
  const profiled = context.profile.name !== 'default' ? profilePrefix(context.profile.name) : undefined;
  return {
    baseUrl: vision.baseUrl ?? context.profile.baseUrl,
    apiKey: vision.apiKey ?? context.profile.apiKey,
    // An error names the setting to fix: the vision model's own, else the profile's.
    ...(vision.apiKey !== undefined ? { keyVariable: 'REIKA_VISION_API_KEY' } : profiled ? { keyVariable: `${profiled}API_KEY` } : {}),
    ...(vision.baseUrl !== undefined ? { urlVariable: 'REIKA_VISION_BASE_URL' } : profiled ? { urlVariable: `${profiled}BASE_URL` } : {}),
    modelVariable: 'REIKA_VISION_MODEL',
    model: vision.model,
    requestTimeoutMs: context.config.requestTimeoutMs,
  };
}

export function nativeVision(context: Pick<ImageContext, 'profile'>): boolean {
  return context.profile.vision === 'native';
}

/**
 * Why a pasted image could not be used right now, before it is even read (so the paste itself
 * says so), or undefined when native mode, a vision model or OCR can take it.
 */
export function pasteProblem(context: Pick<ImageContext, 'config' | 'profile' | 'platform'>): string | undefined {
  if (nativeVision(context) || visionEndpoint(context)) return undefined;
  return (context.platform ?? process.platform) === 'linux' ? OCR_UNAVAILABLE_ON_LINUX : undefined;
}

/** What goes into the user message for one image. */
export type ImageAttachment =
  /** Recognised text, attached to the message. */
  | { kind: 'text'; source: string; text: string }
  /** The bytes go as an image part in this turn's request only; later the note stands in. */
  | { kind: 'native'; source: string; image: Image; note: string; tokens: number };

export async function recognizeImage(image: Image, context: ImageContext): Promise<{ text: string; method: string }> {
  const endpoint = visionEndpoint(context);
  if (endpoint) return { text: await describeImage(context.router, endpoint, image, context.scope), method: `described by ${endpoint.model}` };
  const text = await ocrImage(image, { languages: context.config.vision.ocrLangs, signal: context.signal, platform: context.platform });
  return { text: text || '(no text found)', method: 'OCR' };
}

/**
 * Pasted images go native when the profile says so; `@file` images always go through recognition.
 * Throws ImageError (one sentence for the user) when recognition is unavailable.
 */
export async function attachImage(image: Image, context: ImageContext & { pasted: boolean }): Promise<ImageAttachment> {
  if (context.pasted && nativeVision(context)) {
    return {
      kind: 'native',
      source: image.source,
      image,
      note: `[image from ${image.source}: sent to the model for one turn only, not transcribed — ask the user to paste it again to look again]`,
      tokens: IMAGE_TOKENS,
    };
  }
  const { text, method } = await recognizeImage(image, context);
  return { kind: 'text', source: image.source, text: `[image from ${image.source}, ${method}]\n${text}` };
}
