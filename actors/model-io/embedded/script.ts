import { readFileSync } from 'node:fs';
import { environmentText } from '../../settings/process-settings.js';

export type ScriptCall = { call: string; arguments: Record<string, unknown> };

/** One call, several calls in one reply (`{"calls": [...]}`), or an answer. */
export type ScriptStep = ScriptCall | { calls: ScriptCall[] } | { answer: string };

/**
 * A test aid, not a feature: `REIKA_EMBEDDED_SCRIPT=steps.json` makes the embedded engine
 * constrain its sampling, one step per chat request, so that a random-weight test model drives
 * a whole agent turn. A step `{"call": "read", "arguments": {"path": "a.txt"}}` forces a call of
 * that tool (the model writes it through the call syntax of its template, every token sampled by
 * llama.cpp under a grammar that admits only those arguments); `{"calls": [step, step]}` forces
 * several calls in one reply; `{"answer": "Done."}` admits only that text. Once the steps run out, generation is free again. Nothing else changes: the
 * prompt, the KV cache and the counters are the engine's own.
 */
export class Script {
  private next = 0;

  constructor(private readonly steps: readonly ScriptStep[]) {}

  /** The step for the next chat request, or undefined when there is none left. */
  take(): ScriptStep | undefined {
    return this.steps[this.next++];
  }
}

/** The script named by the environment, if any (read once per engine). */
export function scriptFromEnvironment(env: NodeJS.ProcessEnv = process.env): Script | undefined {
  const path = environmentText('REIKA_EMBEDDED_SCRIPT', env);
  if (!path) return undefined;
  const steps = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!Array.isArray(steps)) throw new Error(`REIKA_EMBEDDED_SCRIPT: ${path} must hold a JSON array of steps`);
  return new Script(steps as ScriptStep[]);
}
