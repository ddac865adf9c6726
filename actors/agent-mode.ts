/**
 * The agent's mode, declared once: the system prompt, the tools array and the executor's checks
 * all read it. `agent` has every tool; `plan` is read-only (its bash takes read-only commands
 * only); `subagent` is read-only without bash, and reports once.
 */
export type AgentMode = 'agent' | 'plan' | 'subagent';

/** Every mode, in a fixed order. */
export const AGENT_MODES: readonly AgentMode[] = ['agent', 'plan', 'subagent'];
