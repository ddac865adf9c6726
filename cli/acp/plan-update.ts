import type { PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk';
import { TODO_STATUSES, type TodoItem } from '../../actors/tool-executor/protocol.js';

/**
 * The model's task list (its `todo` tool) as the editor's plan (ACP `plan`): the whole list each
 * time, as the protocol wants, entry by entry with its status. reika's items carry no priority;
 * each is `medium`.
 */
export function planUpdate(items: readonly TodoItem[]): SessionUpdate {
  return { sessionUpdate: 'plan', entries: items.map((item): PlanEntry => ({ content: item.content, priority: 'medium', status: item.status })) };
}

/** The list a `todo` call's arguments hold (a stored session's replay), or undefined when they hold none. */
export function todoItemsOf(args: Record<string, unknown>): TodoItem[] | undefined {
  if (!Array.isArray(args.todos)) return undefined;
  const items = args.todos.filter((item): item is TodoItem => !!item && typeof item === 'object' && typeof (item as TodoItem).content === 'string' && (TODO_STATUSES as readonly string[]).includes((item as TodoItem).status));
  return items.length === args.todos.length ? items : undefined;
}
