import { readFile } from 'node:fs/promises';
import { findMentionedFile } from '../prompt/mentioned-file.js';
import { mentions, parseMentions } from '../prompt/mentions.js';
import { isImagePath, toDataUrl, toImage, type Image, type TurnImage } from './image.js';
import { attachImage, type ImageContext } from './recognize.js';

// Everything a turn's prompt carries in images: pasted images (native parts or recognised text)
// and `@file.png` mentions (always recognised). Failures become notes, never a failed turn.

export interface PreparedPrompt {
  /** The prompt with recognised text appended. */
  prompt: string;
  /** Images to send as image parts this turn only. */
  images: TurnImage[];
  /** One line per image that could not be used, for the user (also told to the model). */
  problems: string[];
}

/** The `@path` mentions of image files in a prompt. */
export function imageMentions(prompt: string): string[] {
  return mentions(prompt).filter(isImagePath);
}

export async function prepareImages(prompt: string, pasted: readonly Image[], context: ImageContext & { root: string }): Promise<PreparedPrompt> {
  const texts: string[] = [];
  const images: TurnImage[] = [];
  const problems: string[] = [];
  const attach = async (load: () => Promise<Image>, label: string, isPasted: boolean) => {
    try {
      const attachment = await attachImage(await load(), { ...context, pasted: isPasted });
      if (attachment.kind === 'native') images.push({ url: toDataUrl(attachment.image), note: attachment.note });
      else texts.push(attachment.text);
    } catch (error) {
      if (context.signal?.aborted) throw error;
      problems.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  for (const image of pasted) await attach(async () => image, 'pasted image', true);
  for (const mention of parseMentions(prompt)) {
    if (mention.unclosed || !isImagePath(mention.path)) continue;
    const path = mention.path;
    await attach(async () => toImage(await readFile(await findMentionedFile(path, context.root)), path), mention.raw, false);
  }
  const notes = problems.map((problem) => `[image not attached — ${problem}]`);
  return { prompt: [prompt, ...texts, ...notes].join('\n\n'), images, problems };
}
