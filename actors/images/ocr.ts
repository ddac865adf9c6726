import type { Image } from './image.js';
import { ImageError } from './image.js';

// OCR through `@napi-rs/system-ocr` (macOS Vision, Windows.Media.Ocr). It is an optional
// dependency with no Linux binary, so it is loaded lazily, inside a try, on first use.

export const OCR_UNAVAILABLE_ON_LINUX = 'OCR unavailable on Linux — set REIKA_VISION_MODEL or REIKA_VISION=native';

type Recognize = (image: Uint8Array, accuracy?: number | null, langs?: string[] | null, signal?: AbortSignal | null) => Promise<{ text: string }>;

let loaded: Promise<Recognize> | undefined;

function load(platform: NodeJS.Platform): Promise<Recognize> {
  if (platform === 'linux') return Promise.reject(new ImageError(OCR_UNAVAILABLE_ON_LINUX));
  loaded ??= import('@napi-rs/system-ocr').then(
    (module: { recognize: Recognize }) => module.recognize,
    (error: unknown) => {
      loaded = undefined;
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new ImageError(`OCR unavailable: @napi-rs/system-ocr did not load (${why}) — set REIKA_VISION_MODEL or REIKA_VISION=native`);
    },
  );
  return loaded;
}

export interface OcrOptions {
  languages?: string[];
  signal?: AbortSignal;
  platform?: NodeJS.Platform;
}

/** The text in the image, or an ImageError whose message says what to set instead. */
export async function ocrImage(image: Image, options: OcrOptions = {}): Promise<string> {
  const recognize = await load(options.platform ?? process.platform);
  const result = await recognize(image.bytes, 1, options.languages ?? null, options.signal ?? null);
  return result.text.trim();
}
