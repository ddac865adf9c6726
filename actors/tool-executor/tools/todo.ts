import { defineTool } from './define-tool.js';
import { choice, list, string, type ArgsOf } from './params.js';
import { TODO_STATUSES, type TodoItem } from '../protocol.js';
import type { ToolOutcome } from './tool-env.js';

const MAX_ITEMS = 50;

const item = {
  content: string('The step, in a few words.', { required: true, nonEmpty: true }),
  status: choice('pending, in_progress (the one being worked on) or completed.', TODO_STATUSES, { required: true }),
};

const params = {
  todos: list('The whole list; it replaces the previous one.', item, { required: true, min: 0, max: MAX_ITEMS }),
};

/**
 * `todo{todos: [{content, status}]}`: the model's task list for work of several steps. Each call
 * replaces the whole list; the result carries it in `meta.todo`, from which the agent loop makes
 * a `todo` event (the terminal shows it above the prompt, `--stream` prints it, ACP sends it as a
 * `plan` update). Nothing is kept here: the executor holds no session state.
 */
export const todoTool = defineTool({
  name: 'todo',
  description:
    'Keep a short task list for work of several steps, shown to the user: send the whole list each time (it replaces the previous one) with each item pending, in_progress or completed. Mark an item in_progress before working on it and completed as soon as it is done.',
  params,
  modes: { agent: {} },
  approval: 'never',
  run: async (args: ArgsOf<typeof params>): Promise<ToolOutcome> => {
    const items: TodoItem[] = args.todos.map(({ content, status }) => ({ content: content.trim(), status }));
    return { summary: todoSummary(items), payload: renderTodo(items), meta: { todo: items } };
  },
});

/** "2 of 5 done; now: Update the parser" (the call's name says it is the todo list). */
export function todoSummary(items: readonly TodoItem[]): string {
  if (items.length === 0) return 'the list is empty';
  const done = items.filter((entry) => entry.status === 'completed').length;
  const now = items.filter((entry) => entry.status === 'in_progress').map((entry) => entry.content);
  const head = `${done} of ${items.length} done`;
  return now.length > 0 ? `${head}; now: ${now.join('; ')}` : head;
}

/** The list as the model reads it back: `[x]` done, `[>]` in progress, `[ ]` pending. */
export function renderTodo(items: readonly TodoItem[]): string {
  const marks: Record<TodoItem['status'], string> = { completed: '[x]', in_progress: '[>]', pending: '[ ]' };
  return items.map((entry) => `${marks[entry.status]} ${entry.content}`).join('\n');
}
