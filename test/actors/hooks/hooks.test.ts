import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readHooks, type HookEntry } from '../../../actors/hooks/hook-config.js';
import { Hooks } from '../../../actors/hooks/hooks.js';
import { tempDir } from '../../helpers/temp.js';

// Real hook scripts in a temp project, run by /bin/bash as reika runs them.

function hooksOf(root: string, block: unknown): Hooks {
  const { entries, problems } = readHooks(block, join(root, '.reika/settings.json'));
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return new Hooks(entries, () => ({ sessionId: 'sess-1', transcriptPath: '/t/sess-1.jsonl', cwd: root }));
}

function script(root: string, name: string, body: string): string {
  const path = join(root, name);
  writeFileSync(path, `#!/bin/bash\n${body}\n`, { mode: 0o755 });
  return path;
}

test('a hook gets one JSON object on stdin and runs in the project folder', async (t) => {
  const root = tempDir();
  const hook = script(root, 'log.sh', 'cat > "$REIKA_PROJECT_DIR/seen.json"; pwd > where.txt');
  const hooks = hooksOf(root, { PostToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: hook }] }] });
  const outcome = await hooks.run('PostToolUse', { tool_name: 'bash', tool_input: { command: 'ls' }, tool_response: { status: 'done' } }, { tool: 'bash' });
  t.deepEqual(outcome, { output: [], context: [], messages: [], problems: [] });
  t.deepEqual(JSON.parse(readFileSync(join(root, 'seen.json'), 'utf8')), {
    hook_event_name: 'PostToolUse',
    session_id: 'sess-1',
    transcript_path: '/t/sess-1.jsonl',
    cwd: root,
    tool_name: 'bash',
    tool_input: { command: 'ls' },
    tool_response: { status: 'done' },
  });
  t.is(readFileSync(join(root, 'where.txt'), 'utf8').trim(), root);
});

test('matchers are case-insensitive regular expressions on the whole tool name, Claude Code names included', async (t) => {
  const root = tempDir();
  const entries = (matcher: string | undefined) => readHooks({ PreToolUse: [{ matcher, hooks: [{ type: 'command', command: 'true' }] }] }, 'f').entries;
  const has = (matcher: string | undefined, tool: string) => new Hooks(entries(matcher), () => ({ sessionId: 's', cwd: root })).has('PreToolUse', tool);
  t.true(has('Bash', 'bash'));
  t.true(has('Edit|Write', 'write'));
  t.false(has('Edit', 'multi_edit'), 'a plain name matches that tool only');
  t.true(has('WebFetch', 'fetch'));
  t.true(has('mcp__github__.*', 'mcp__github__create_issue'));
  t.true(has(undefined, 'read'), 'no matcher: every tool');
  t.true(has('*', 'read'));
  t.false(has('Bash', 'read'));
});

test('exit 2 blocks with stderr as the reason; a JSON decision blocks or approves', async (t) => {
  const root = tempDir();
  const hooks = hooksOf(root, {
    PreToolUse: [
      { matcher: 'bash', hooks: [{ type: 'command', command: 'echo "no pushing from here" >&2; exit 2' }] },
      { matcher: 'write', hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"generated files are not edited by hand"}'` }] },
      { matcher: 'read', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"reading is fine"}}'` }] },
    ],
  });
  t.is((await hooks.run('PreToolUse', {}, { tool: 'bash' })).block, 'no pushing from here');
  t.is((await hooks.run('PreToolUse', {}, { tool: 'write' })).block, 'generated files are not edited by hand');
  const read = await hooks.run('PreToolUse', {}, { tool: 'read' });
  t.is(read.block, undefined);
  t.is(read.approve, 'reading is fine');
});

test('a JSON answer is read as Claude Code reads it: additionalContext, systemMessage, suppressOutput, continue, ask', async (t) => {
  const root = tempDir();
  const answer = (json: unknown) => ({ hooks: [{ type: 'command', command: `echo '${JSON.stringify(json)}'` }] });
  const hooks = hooksOf(root, {
    PostToolUse: [
      { matcher: 'bash', ...answer({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint: 2 warnings in a.ts' } }) },
      { matcher: 'read', ...answer({ suppressOutput: true, systemMessage: 'read logged', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a.txt is generated' } }) },
      { matcher: 'write', ...answer({ continue: false, stopReason: 'the build is broken: stop here', decision: 'block', reason: 'ignored' }) },
    ],
    PreToolUse: [{ matcher: 'bash', ...answer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'a person should see this one' } }) }],
    SessionStart: [{ hooks: [{ type: 'command', command: 'echo "branch: main"' }] }],
    Stop: [{ hooks: [{ type: 'command', command: `echo '{"continue": false'` }] }],
  });
  const bash = await hooks.run('PostToolUse', {}, { tool: 'bash' });
  t.deepEqual([bash.context, bash.output, bash.messages], [['lint: 2 warnings in a.ts'], ['lint: 2 warnings in a.ts'], []], 'the context is the model’s and shown');
  const read = await hooks.run('PostToolUse', {}, { tool: 'read' });
  t.deepEqual([read.context, read.output, read.messages], [['a.txt is generated'], [], ['read logged']], 'suppressOutput: the model gets it, the user only the systemMessage');
  const write = await hooks.run('PostToolUse', {}, { tool: 'write' });
  t.is(write.stop, 'the build is broken: stop here');
  const pre = await hooks.run('PreToolUse', {}, { tool: 'bash' });
  t.deepEqual([pre.ask, pre.approve, pre.block], ['a person should see this one', undefined, undefined]);
  const start = await hooks.run('SessionStart');
  t.deepEqual([start.context, start.output], [['branch: main'], ['branch: main']], 'SessionStart’s plain output is context, as UserPromptSubmit’s');
  const stop = await hooks.run('Stop');
  t.deepEqual([stop.stop, stop.output, stop.context], [undefined, ['{"continue": false'], []], 'JSON that does not parse stays plain output');
});

test('one hook’s deny wins over another’s ask, and an ask over an allow', async (t) => {
  const root = tempDir();
  const decide = (decision: string) => ({ hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"${decision}","permissionDecisionReason":"${decision} it"}}'` }] });
  const hooks = hooksOf(root, { PreToolUse: [{ matcher: 'bash', ...decide('allow') }, { matcher: 'bash|read', ...decide('ask') }, { matcher: 'bash', ...decide('deny') }] });
  const bash = await hooks.run('PreToolUse', {}, { tool: 'bash' });
  t.deepEqual([bash.block, bash.ask, bash.approve], ['deny it', undefined, undefined]);
  const read = await hooks.run('PreToolUse', {}, { tool: 'read' });
  t.deepEqual([read.block, read.ask, read.approve], [undefined, 'ask it', undefined]);
});

test('a failing hook is one line and does not block; plain output is kept', async (t) => {
  const root = tempDir();
  const hooks = hooksOf(root, {
    Stop: [
      { hooks: [{ type: 'command', command: 'echo "formatter crashed" >&2; echo more >&2; exit 1' }] },
      { hooks: [{ type: 'command', command: 'echo all formatted' }] },
      { hooks: [{ type: 'command', command: '/nonexistent/hook.sh' }] },
    ],
  });
  const outcome = await hooks.run('Stop');
  t.is(outcome.block, undefined);
  t.deepEqual(outcome.output, ['all formatted']);
  t.deepEqual(outcome.problems, [
    'Stop hook `echo "formatter crashed" >&2; echo more >&2; exit 1` failed (exit 1): formatter crashed',
    'Stop hook `/nonexistent/hook.sh` failed (exit 127): /bin/bash: line 1: /nonexistent/hook.sh: No such file or directory',
  ]);
});

test('a hook that hangs is killed at its timeout, with what it started', async (t) => {
  const root = tempDir();
  const hook = script(root, 'hang.sh', 'sleep 300 & echo $! > child.pid; sleep 300');
  const hooks = hooksOf(root, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook, timeout: 0.5 }] }] });
  const outcome = await hooks.run('UserPromptSubmit', { prompt: 'hi' });
  t.deepEqual(outcome.problems, [`UserPromptSubmit hook \`${hook}\` ran past its timeout and was killed`]);
  t.is(outcome.block, undefined);
  const child = Number(readFileSync(join(root, 'child.pid'), 'utf8'));
  t.true(await goneSoon(child), 'the hook’s own child is gone too');
});

test('an abort kills a running hook at once', async (t) => {
  const root = tempDir();
  const hook = script(root, 'slow.sh', 'echo $$ > hook.pid; sleep 300');
  const hooks = hooksOf(root, { PreToolUse: [{ hooks: [{ type: 'command', command: hook }] }] });
  const controller = new AbortController();
  const running = hooks.run('PreToolUse', {}, { tool: 'bash', signal: controller.signal });
  await until(() => existsSync(join(root, 'hook.pid')));
  controller.abort();
  const outcome = await running;
  t.deepEqual(outcome.problems, [`PreToolUse hook \`${hook}\` was stopped: the turn was interrupted`]);
  t.true(await goneSoon(Number(readFileSync(join(root, 'hook.pid'), 'utf8'))));
});

test('a hooks block that cannot be used is one line per problem, naming the file and key; the rest loads', (t) => {
  const { entries, problems } = readHooks(
    {
      PreToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'x' }] }, { matcher: 'bash', hooks: [{ type: 'command', command: 'ok', timeout: 5 }, { type: 'prompt', prompt: 'x' }] }],
      OnSave: [],
      Stop: { hooks: [] },
    },
    '/p/.reika/settings.json',
  );
  t.deepEqual(entries, [{ event: 'PreToolUse', matcher: 'bash', command: 'ok', timeoutMs: 5000, file: '/p/.reika/settings.json' } satisfies HookEntry]);
  t.is(problems.length, 4);
  t.regex(problems[0]!, /^\/p\/\.reika\/settings\.json: hooks\.PreToolUse\[0\]\.matcher: not a regular expression/);
  t.regex(problems[1]!, /hooks\.PreToolUse\[1\]\.hooks\[1\]: type "prompt" is not "command"; ignored$/);
  t.regex(problems[2]!, /hooks\.OnSave: not an event reika knows/);
  t.regex(problems[3]!, /hooks\.Stop: not a list/);
});

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** A SIGKILLed process is gone once the kernel has run its exit: a moment after the kill. */
async function goneSoon(pid: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return !alive(pid);
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}
