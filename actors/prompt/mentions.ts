/**
 * The `@path` mentions in a message: an `@` at the start or after whitespace, trailing
 * punctuation dropped, each path once, in order. `me@example.com` is no mention.
 */
export function mentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const path = match[1]!.replace(/[,.;:!?)]+$/, '');
    if (path && !found.includes(path)) found.push(path);
  }
  return found;
}
