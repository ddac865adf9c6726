import { errorClass } from '../../runtime/errors.js';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

/**
 * An image the user attached (pasted or `@file.png`), and the fixed facts the context budget and
 * the wire need about it.
 */
export interface Image {
  bytes: Buffer;
  mime: ImageMime;
  /** `clipboard` or the path the user named. */
  source: string;
}

/** An image sent as an image part for one turn; `note` stands in for it afterwards. */
export interface TurnImage {
  /** A `data:` URL. */
  url: string;
  note: string;
}

/** What one image costs in the context estimate, whatever its size (SPEC §8). */
export const IMAGE_TOKENS = 1_024;

/**
 * Larger images are refused rather than sent: no well-kept, dependency-free library downscales
 * PNG/JPEG/WebP cheaply in Node, and OpenAI-compatible servers reject huge data URLs anyway.
 */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.gif'] as const;

/** The image type from its first bytes, or undefined when it is no image we know. */
export function sniffImage(bytes: Uint8Array): ImageMime | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

/** An image reika cannot read or send. */
export class ImageError extends errorClass('REIKA_ERR_IMAGE') {}

/** Checks bytes and size; the message of a refusal is one sentence for the user. */
export function toImage(bytes: Buffer, source: string): Image {
  const mime = sniffImage(bytes);
  if (!mime) throw new ImageError(`${source} is not a PNG, JPEG, WebP or GIF image`);
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new ImageError(`${source} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; images over ${MAX_IMAGE_BYTES / 1024 / 1024} MB are refused — crop or shrink it first`);
  }
  return { bytes, mime, source };
}

export function toDataUrl(image: Image): string {
  return `data:${image.mime};base64,${image.bytes.toString('base64')}`;
}

export function isImagePath(path: string): boolean {
  const lower = path.toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
