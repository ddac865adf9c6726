import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { contextRules } from '../actors/tool-executor/rules/context-rules.js';
import { ruleSubjectOf } from '../actors/tool-executor/rules/rule-subject.js';
import type { RuleData } from '../actors/tool-executor/rules/rule.js';
import { commandDangers } from '../actors/tool-executor/shell/danger.js';
import { spawn } from 'node:child_process';
import { readHooks } from '../actors/hooks/hook-config.js';
import { Hooks } from '../actors/hooks/hooks.js';
import { fmt, row, summarize } from './stats.js';

// Hooks (SPEC §17): what a no-op hook (`true`) adds to a tool call — its process start, the JSON
// on its stdin, its exit — beside a bare spawn of `/bin/bash -c true` and its exit, interleaved.
//
// Permission rules (SPEC §17): what a bash call pays for a 20-rule set on a compound command —
// the rules found for the call's context (cached by content), the line parsed and unwrapped, every
// deny, ask and allow rule tried on every simple command — beside the danger check the same call
// already runs on the same line. Target: < 0.2 ms per call.

const COMMAND = 'cd web && npm ci && sudo env CI=1 bash -c "npm test -- --watch=false | tee test.log" && git -C .. push origin HEAD:main; echo "$(git rev-parse --short HEAD)" > rev.txt';
const RULES: [RuleData['effect'], string][] = [
  ['deny', 'Bash(git push --force:*)'],
  ['deny', 'Bash(rm -rf /:*)'],
  ['deny', 'Bash(curl * | sh)'],
  ['deny', 'Read(./secrets/**)'],
  ['deny', 'Read(~/.ssh/**)'],
  ['deny', 'Edit(//etc/**)'],
  ['deny', 'WebFetch(domain:evil.example)'],
  ['ask', 'Bash(npm publish:*)'],
  ['ask', 'Bash(docker * prune)'],
  ['ask', 'Bash(git push:*)'],
  ['ask', 'Edit(.github/**)'],
  ['allow', 'Bash(npm ci)'],
  ['allow', 'Bash(npm test:*)'],
  ['allow', 'Bash(npm run *)'],
  ['allow', 'Bash(git status)'],
  ['allow', 'Bash(git rev-parse:*)'],
  ['allow', 'Bash(tee:*)'],
  ['allow', 'Bash(make:*)'],
  ['allow', 'Edit(src/**)'],
  ['allow', 'mcp__github'],
];
const ROUNDS = 7;
const PER_ROUND = 400;

export default async function (): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'reika-bench-rules-'));
  const permissions: RuleData[] = RULES.map(([effect, rule]) => ({ effect, rule, scope: 'user', file: '/home/u/.config/reika/settings.json' }));
  const context = { root, permissions };
  const check = () => contextRules(context)!.check(ruleSubjectOf('bash', { command: COMMAND }, root));
  const decided = check();
  if (decided?.rule !== 'Bash(git push:*)') throw new Error(`the bench's rule set decided ${decided?.rule}, not the ask rule it is built to reach`);
  // Warm both paths (compile, JIT) before measuring; rounds interleave them.
  for (let i = 0; i < 200; i++) {
    check();
    commandDangers(COMMAND, root);
  }
  const rules: number[] = [];
  const dangers: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    for (let i = 0; i < PER_ROUND; i++) check();
    rules.push((performance.now() - started) / PER_ROUND);
    started = performance.now();
    for (let i = 0; i < PER_ROUND; i++) commandDangers(COMMAND, root);
    dangers.push((performance.now() - started) / PER_ROUND);
  }
  const ruleMs = summarize(rules).p50;
  const dangerMs = summarize(dangers).p50;
  row('20 rules on a compound command, ms per call', fmt(ruleMs, 3), `${fmt(dangerMs, 3)} danger`, ruleMs / dangerMs, '< 0.2 ms');

  const hooks = new Hooks(readHooks({ PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'true' }] }] }, 'bench').entries, () => ({ sessionId: 'bench', cwd: root }));
  const bare = () => new Promise<void>((resolve) => spawn('/bin/bash', ['-c', 'true'], { cwd: root, stdio: 'ignore' }).once('close', () => resolve()));
  const hooked: number[] = [];
  const spawned: number[] = [];
  for (let i = 0; i < 3; i++) {
    await hooks.run('PreToolUse', { tool_name: 'bash', tool_input: { command: COMMAND } }, { tool: 'bash' });
    await bare();
  }
  for (let i = 0; i < 15; i++) {
    let started = performance.now();
    const outcome = await hooks.run('PreToolUse', { tool_name: 'bash', tool_input: { command: COMMAND } }, { tool: 'bash' });
    hooked.push(performance.now() - started);
    if (outcome.problems.length > 0 || outcome.block !== undefined) throw new Error(`the no-op hook did not go on: ${outcome.problems.join('; ')}`);
    started = performance.now();
    await bare();
    spawned.push(performance.now() - started);
  }
  const hookMs = summarize(hooked).p50;
  const spawnMs = summarize(spawned).p50;
  row('a no-op PreToolUse hook, ms per call', fmt(hookMs, 2), `${fmt(spawnMs, 2)} spawn`, hookMs / spawnMs, 'its process start');
}
