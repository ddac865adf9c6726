/* eslint-disable @typescript-eslint/no-explicit-any -- tools' JSON schemas (from MCP servers too),
   walked by keyword; every keyword read is checked before use. */
import { attribute } from '../calls/invoke-xml.js';
import { coerceTyped, schemaTypes } from '../calls/tool-index.js';
import { malformed, skipSpace, type Dialect, type TextItem } from './dialect.js';

/** The namespace token MiniMax-M3 writes before every tag of a call. */
export const M3 = ']<]minimax[>[';
const OPEN = `${M3}<tool_call>`;
const CLOSE = `${M3}</tool_call>`;
const INVOKE = `${M3}<invoke`;
const INVOKE_END = `${M3}</invoke>`;

/** One level of a nested value being read: its tag, what it holds so far, its schema. */
interface Level {
  tag: string | null;
  value: Record<string, unknown> | unknown[] | null;
  texts: string[] | null;
  schema: any;
}

const isArray = (schema: any, next: string | undefined) => schemaTypes(schema).includes('array') && next?.startsWith('<item>') === true;

function childSchema(level: Level, tag: string): any {
  const schema = level.schema;
  if (!schema) return undefined;
  if (Array.isArray(level.value)) return schema.items;
  if (level.value && typeof level.value === 'object') return schema.properties?.[tag] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
  return undefined;
}

function valueOf(level: Level): unknown {
  if (level.value === null) return coerceTyped(schemaTypes(level.schema), level.texts ? level.texts.join('') : '');
  if (level.texts && !Array.isArray(level.value)) return { ...level.value, $text: level.texts.join('') };
  return level.value;
}

function append(parent: Level, child: Level): void {
  const tag = child.tag ?? '';
  const value = valueOf(child);
  if (parent.value === null) parent.value = { [tag]: value };
  else if (Array.isArray(parent.value)) parent.value.push(value);
  else if (tag in parent.value) {
    const existing = parent.value[tag];
    parent.value[tag] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  } else parent.value[tag] = value;
}

function appendText(level: Level, text: string): void {
  if (Array.isArray(level.value)) level.value.push(coerceTyped(schemaTypes(level.schema?.items), text));
  else (level.texts ??= []).push(text);
}

/**
 * A parameter whose body is nested tags (`NS<city>x NS</city>` → an object, `NS<item>` children
 * of an array → a list, a repeated tag → a list), read the way vLLM's MiniMax-M3 parser reads it.
 */
function nested(body: string, schema: any): unknown {
  const chunks = body.split(M3);
  const root: Level = { tag: null, value: isArray(schema, chunks[1]) ? [] : {}, texts: null, schema };
  const stack: Level[] = [root];
  for (let k = 1; k < chunks.length; k++) {
    const chunk = chunks[k]!;
    if (chunk.startsWith('</')) {
      const gt = chunk.indexOf('>', 2);
      const tag = gt === -1 ? chunk.slice(2) : chunk.slice(2, gt);
      const rest = gt === -1 ? '' : chunk.slice(gt + 1);
      while (stack.length > 1) {
        const level = stack.pop()!;
        append(stack.at(-1)!, level);
        if (level.tag === tag) break;
      }
      if (rest) appendText(stack.at(-1)!, rest);
    } else if (chunk.startsWith('<')) {
      const gt = chunk.indexOf('>', 1);
      const tag = gt === -1 ? chunk.slice(1) : chunk.slice(1, gt);
      const rest = gt === -1 ? '' : chunk.slice(gt + 1);
      const sub = childSchema(stack.at(-1)!, tag);
      const value = isArray(sub, chunks[k + 1]) ? [] : schemaTypes(sub).includes('object') ? {} : null;
      stack.push({ tag, value, texts: rest ? [rest] : null, schema: sub });
    } else if (chunk) appendText(stack.at(-1)!, chunk);
  }
  while (stack.length > 1) append(stack.at(-2)!, stack.pop()!);
  return valueOf(root);
}

/**
 * MiniMax-M3 (`minimax_m3` parsers): every tag behind the token `]<]minimax[>[`, one tag per
 * parameter named after it, nested tags for objects and lists:
 * `NS<tool_call>\nNS<invoke name="NAME">NS<key>value NS</key>NS</invoke>\nNS</tool_call>`.
 */
export const minimaxM3: Dialect = {
  name: 'minimax-m3',
  label: 'MiniMax-M3 ]<]minimax[>[<tool_call>',
  openers: [OPEN],
  marked: true,
  scan(text, start, _opener, context) {
    const items: TextItem[] = [];
    const fail = (reason: string, end: number, unknownTool?: string) => {
      const close = text.indexOf(CLOSE, end);
      if (close === -1 && !context.final) return { state: 'incomplete' } as const;
      return malformed(text, start, close === -1 ? text.length : close + CLOSE.length, 'minimax-m3', reason, unknownTool);
    };
    let i = start + OPEN.length;
    for (;;) {
      i = skipSpace(text, i);
      if (text.startsWith(CLOSE, i)) return items.length ? { state: 'items', items, end: i + CLOSE.length } : fail('no call followed', i);
      if (i >= text.length || (!context.final && (CLOSE.startsWith(text.slice(i)) || INVOKE.startsWith(text.slice(i))))) {
        if (!context.final) return { state: 'incomplete' };
        return items.length ? { state: 'items', items, end: i } : fail('no call followed', i);
      }
      if (!text.startsWith(INVOKE, i)) return items.length ? { state: 'items', items, end: i } : fail('no call followed', i);
      const headerEnd = text.indexOf('>', i + INVOKE.length);
      if (headerEnd === -1) return context.final ? fail('a call was cut off', i) : { state: 'incomplete' };
      const name = attribute(text.slice(i + INVOKE.length, headerEnd), 'name') ?? '';
      const properties = context.tools.properties.get(name) ?? {};
      const args: Record<string, unknown> = {};
      let j = headerEnd + 1;
      for (;;) {
        j = skipSpace(text, j);
        if (text.startsWith(INVOKE_END, j)) {
          j += INVOKE_END.length;
          break;
        }
        if (j >= text.length || (!context.final && M3.startsWith(text.slice(j, j + M3.length)) && text.length - j <= M3.length + 1)) {
          if (!context.final) return { state: 'incomplete' };
          break; // the stream ended inside the call: take what was written
        }
        if (text.startsWith(CLOSE, j) || text.startsWith(INVOKE, j)) break; // `</invoke>` missing
        if (!text.startsWith(`${M3}<`, j)) return fail(`the call to ${name || 'a tool'} holds text outside a parameter`, j);
        const keyEnd = text.indexOf('>', j + M3.length + 1);
        if (keyEnd === -1) {
          if (!context.final) return { state: 'incomplete' };
          break;
        }
        const key = text.slice(j + M3.length + 1, keyEnd);
        const end = `${M3}</${key}>`;
        const bodyEnd = text.indexOf(end, keyEnd + 1);
        if (bodyEnd === -1 && !context.final) return { state: 'incomplete' };
        const body = text.slice(keyEnd + 1, bodyEnd === -1 ? text.length : bodyEnd);
        args[key] = body.startsWith(`${M3}<`) ? nested(body, properties[key]) : coerceTyped(schemaTypes(properties[key]), body);
        j = bodyEnd === -1 ? text.length : bodyEnd + end.length;
      }
      if (!name) return fail('a call has no name', j);
      if (!context.tools.names.has(name)) return fail(`there is no tool named "${name}"`, j, name);
      items.push({ type: 'call', name, arguments: args, dialect: 'minimax-m3' });
      i = j;
    }
  },
  example: (name, args) =>
    `${OPEN}\n${M3}<invoke name="${name}">${Object.entries(args)
      .map(([key, value]) => `${M3}<${key}>${typeof value === 'string' ? value : JSON.stringify(value)}${M3}</${key}>`)
      .join('')}${M3}</invoke>\n${CLOSE}`,
};
