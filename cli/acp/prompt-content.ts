import { fileURLToPath } from 'node:url';
import { isAbsolute, relative } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { ImageError, isImagePath, toImage, type Image } from '../../actors/images/image.js';
import { attachFile, fileBlock } from '../tui/attachments.js';

// An editor's prompt (ACP content blocks) as the terminal would have sent it: the text typed, each
// linked file attached as a `<file>` block the way `@path` attaches it, each embedded resource
// (the editor's buffer, unsaved changes and all) as the same block with the editor's text, and
// images as pasted images (recognised or sent natively, as the profile says). What cannot be used
// is one line in `problems`, for the user; the rest goes on.

export interface EditorPrompt {
  /** The message: the text, then the attached files. */
  text: string;
  images: Image[];
  problems: string[];
}

export async function readPrompt(blocks: readonly ContentBlock[], root: string): Promise<EditorPrompt> {
  const texts: string[] = [];
  const files: string[] = [];
  const images: Image[] = [];
  const problems: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'image':
        try {
          images.push(toImage(Buffer.from(block.data, 'base64'), block.uri ?? 'an image from the editor'));
        } catch (error) {
          problems.push(ImageError.isInstance(error) ? error.message : `an image from the editor could not be read: ${String(error)}`);
        }
        break;
      case 'resource_link': {
        const path = filePath(block.uri);
        if (!path) {
          // Not a file reika can open: the model gets the link as written.
          texts.push(block.uri);
          break;
        }
        if (isImagePath(path)) {
          const image = await readImage(path);
          if ('problem' in image) problems.push(image.problem);
          else images.push(image);
          break;
        }
        const file = await attachFile(path, root, block.name || path);
        if (file && 'problem' in file) problems.push(file.problem);
        else if (file) files.push(file.block);
        break;
      }
      case 'resource': {
        const resource = block.resource;
        const path = filePath(resource.uri);
        const shown = path ? shownPath(path, root) : resource.uri;
        if ('text' in resource) files.push(fileBlock(shown, resource.text));
        else if (path && isImagePath(path)) {
          try {
            images.push(toImage(Buffer.from(resource.blob, 'base64'), shown));
          } catch (error) {
            problems.push(ImageError.isInstance(error) ? error.message : String(error));
          }
        } else problems.push(`${shown} is a binary resource; not attached`);
        break;
      }
      case 'audio':
        problems.push('reika does not take audio; the clip was left out');
        break;
    }
  }
  const typed = texts.join('\n\n');
  return { text: files.length > 0 ? `${typed}\n\n${files.join('\n\n')}` : typed, images, problems };
}

/** The path of a `file://` URI (or of a plain absolute path); undefined for other schemes. */
function filePath(uri: string): string | undefined {
  if (uri.startsWith('file://')) {
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(uri) ? uri : undefined;
}

function shownPath(path: string, root: string): string {
  const inside = relative(root, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside.split('\\').join('/') : path;
}

async function readImage(path: string): Promise<Image | { problem: string }> {
  try {
    return toImage(await readFile(path), path);
  } catch (error) {
    if (ImageError.isInstance(error)) return { problem: error.message };
    return { problem: `${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}` };
  }
}
