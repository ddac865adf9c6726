/** `reika index`: not built yet. */
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('reika: the index command is not built yet\n');
  return 1;
}
