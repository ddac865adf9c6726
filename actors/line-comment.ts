// Shared by the `.env` reader (config) and front matter (prompt), which may not import each other.

/**
 * `value  # a comment` without the comment: from the first white space followed by `#`. Found with
 * one search: `/\s+#.*$/` retried each space of a long run, and a project's `.env` and front matter
 * are not trusted.
 */
export function withoutComment(value: string): string {
  const hash = /\s#/.exec(value);
  if (!hash) return value;
  let start = hash.index;
  while (start > 0 && /\s/.test(value[start - 1]!)) start--;
  return value.slice(0, start);
}
