import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImageError, toImage, type Image } from '../actors/images/image.js';

// Reads an image from the system clipboard with the platform's own helper program: wl-paste
// (Wayland) or xclip (X11) on Linux, osascript on macOS, PowerShell on Windows.

let helperEnv: NodeJS.ProcessEnv = process.env;

const run = (file: string, args: string[]): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 10_000, env: helperEnv }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout);
    });
  });

function missing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

async function linux(env: NodeJS.ProcessEnv): Promise<Buffer> {
  if (env.WAYLAND_DISPLAY) {
    try {
      const types = (await run('wl-paste', ['--list-types'])).toString('utf8').split('\n');
      const type = IMAGE_TYPES.find((t) => types.includes(t));
      if (!type) throw new ImageError('the clipboard holds no image');
      return await run('wl-paste', ['--no-newline', '--type', type]);
    } catch (error) {
      if (!missing(error)) throw error;
      if (!env.DISPLAY) throw new ImageError('pasting images needs wl-paste: install wl-clipboard');
    }
  }
  if (!env.DISPLAY) throw new ImageError('no display to read the clipboard from (neither WAYLAND_DISPLAY nor DISPLAY is set)');
  let targets: string[];
  try {
    targets = (await run('xclip', ['-selection', 'clipboard', '-t', 'TARGETS', '-o'])).toString('utf8').split('\n').map((s) => s.trim());
  } catch (error) {
    if (missing(error)) throw new ImageError('pasting images needs xclip: install xclip (or wl-clipboard on Wayland)');
    throw new ImageError('the clipboard holds no image');
  }
  const type = IMAGE_TYPES.find((t) => targets.includes(t));
  if (!type) throw new ImageError('the clipboard holds no image');
  return run('xclip', ['-selection', 'clipboard', '-t', type, '-o']);
}

async function viaTempFile(read: (path: string) => Promise<unknown>): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'reika-paste-'));
  const path = join(dir, 'clipboard.png');
  try {
    await read(path);
    return readFileSync(path);
  } catch {
    throw new ImageError('the clipboard holds no image');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MAC_SCRIPT = (path: string) => [
  '-e', `set f to open for access POSIX file "${path}" with write permission`,
  '-e', 'write (the clipboard as «class PNGf») to f',
  '-e', 'close access f',
];

const WINDOWS_SCRIPT = (path: string) =>
  `Add-Type -AssemblyName System.Windows.Forms; $i=[Windows.Forms.Clipboard]::GetImage(); if ($i -eq $null) { exit 1 }; $i.Save('${path.replace(/'/g, "''")}', [System.Drawing.Imaging.ImageFormat]::Png)`;

/** The clipboard's image, or an ImageError that says what is wrong and what to install. */
export async function readClipboardImage(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Promise<Image> {
  helperEnv = env;
  let bytes: Buffer;
  if (platform === 'darwin') bytes = await viaTempFile((path) => run('osascript', MAC_SCRIPT(path)));
  else if (platform === 'win32') bytes = await viaTempFile((path) => run('powershell.exe', ['-NoProfile', '-Command', WINDOWS_SCRIPT(path)]));
  else bytes = await linux(env);
  if (bytes.length === 0) throw new ImageError('the clipboard holds no image');
  return toImage(bytes, 'clipboard');
}
