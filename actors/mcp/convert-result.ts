import { sniffImage } from '../images/image.js';
import type { SpillStore } from '../tool-executor/files/spill.js';
import { formatBytes } from '../tool-executor/tools/tool-env.js';
import type { ToolOutcome } from '../tool-executor/tools/tool-env.js';

export const INLINE_CHARS = 64 * 1024;
const SUMMARY_CHARS = 160;

/** The parts of a result this reads (the SDK's CallToolResult, loosely). */
export interface McpCallResult {
  content?: readonly McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
  /** Servers on the 2024-10-07 protocol answer `{ toolResult }`. */
  toolResult?: unknown;
}

export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; description?: string; mimeType?: string }
  | { type: string; [key: string]: unknown };

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'audio/wav': 'wav', 'audio/mpeg': 'mp3', 'application/pdf': 'pdf' };

/**
 * An MCP `tools/call` result as a reika tool outcome: the text of its content blocks in order
 * (text, resources, links), images and other binary parts saved to spill files that the payload
 * names, structured content as JSON when the blocks say nothing else, and `isError` as an error
 * the model can act on. Payloads past {@link INLINE_CHARS} keep their head inline; the whole text
 * goes to a spill file that `read` and `grep` can open, as bash does.
 */
export async function convertResult(result: McpCallResult, label: string, spill: SpillStore): Promise<ToolOutcome> {
  const parts: string[] = [];
  const files: string[] = [];
  const save = async (kind: string, base64: string, mimeType: string | undefined, what: string) => {
    const bytes = Buffer.from(base64, 'base64');
    const mime = (kind === 'image' ? sniffImage(bytes) : undefined) ?? mimeType ?? 'application/octet-stream';
    const path = await spill.write(`mcp-${kind}`, bytes, EXTENSIONS[mime] ?? 'bin');
    files.push(path);
    parts.push(`[${what}: ${mime}, ${formatBytes(bytes.length)}, saved to ${path}]`);
  };
  for (const block of result.content ?? []) {
    const item = block as Record<string, unknown>;
    switch (block.type) {
      case 'text':
        parts.push(String(item.text ?? ''));
        break;
      case 'image':
      case 'audio':
        await save(block.type, String(item.data ?? ''), typeof item.mimeType === 'string' ? item.mimeType : undefined, block.type);
        break;
      case 'resource': {
        const resource = (item.resource ?? {}) as Record<string, unknown>;
        if (typeof resource.text === 'string') parts.push(`[resource ${String(resource.uri)}]\n${resource.text}`);
        else await save('resource', String(resource.blob ?? ''), resource.mimeType as string | undefined, `resource ${String(resource.uri)}`);
        break;
      }
      case 'resource_link':
        parts.push(`[resource link ${String(item.uri)}${item.name ? ` (${String(item.name)})` : ''}${item.description ? `: ${String(item.description)}` : ''}]`);
        break;
      default:
        parts.push(`[${String(block.type)} content: ${JSON.stringify(block).slice(0, 200)}]`);
    }
  }
  const hasText = parts.some((part) => part.trim() !== '' && !part.startsWith('['));
  if (result.structuredContent !== undefined && !hasText) parts.push(JSON.stringify(result.structuredContent, null, 2));
  if (result.toolResult !== undefined && parts.length === 0) parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult, null, 2));

  const text = parts.join('\n');
  let payload = text;
  let spilled = '';
  if (text.length > INLINE_CHARS) {
    const path = await spill.write('mcp-result', text);
    spilled = `, ${formatBytes(Buffer.byteLength(text))} in all, saved to ${path}`;
    payload = `${text.slice(0, INLINE_CHARS)}\n… [cut: the whole result is in ${path}; read or grep it]`;
  }
  const first = firstLine(text) || (files.length > 0 ? `${files.length} file${files.length === 1 ? '' : 's'}` : 'no content');
  const extra = files.length > 0 && !first.startsWith('[') ? ` (+${files.length} file${files.length === 1 ? '' : 's'})` : '';
  if (result.isError) {
    return { status: 'error', errorCode: 'MCP_TOOL_ERROR', summary: `${label} failed: ${first}${extra}${spilled}`, payload };
  }
  return { summary: `${label}: ${first}${extra}${spilled}`, payload };
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}
