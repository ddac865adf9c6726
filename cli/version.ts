import { readFileSync } from 'node:fs';

/** The package version, from the nearest package.json above the compiled file (any out dir). */
export function version(): string {
  for (let url = new URL('../package.json', import.meta.url); ; url = new URL('../package.json', url)) {
    try {
      return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
    } catch (error) {
      if (url.pathname === '/package.json') throw error;
    }
  }
}
