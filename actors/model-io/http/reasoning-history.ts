// REIKA_REASONING_HISTORY=auto|keep|drop: whether the model's reasoning goes back to it as
// `reasoning_content` in the history. `keep` always, `drop` never; `auto` (the default) only for
// models whose chat template renders past reasoning in the prompt, so sending it both helps the
// model and keeps every prompt an extension of the previous one. With the template known (llama.cpp
// `/props`) that is decided by rendering it (template-check/probe.ts); otherwise by the model's name,
// for the families whose templates do: gpt-oss, GLM-4.5 and later, MiniMax-M2, Kimi-K2-Thinking,
// Seed-OSS, Ministral-3. The decision is made once per session: a message sent with its reasoning
// keeps it.

export type ReasoningHistorySetting = 'auto' | 'keep' | 'drop';


const RENDERS_REASONING = /gpt-oss|glm-?4\.[5-9]|glm-?[5-9]|minimax-m2|kimi-k2-thinking|seed-oss|ministral-3/i;

/** `templateKeeps`: what rendering the engine's template said (undefined when it is not known). */
export function keepReasoning(setting: ReasoningHistorySetting, model: string, templateKeeps?: boolean): boolean {
  if (setting !== 'auto') return setting === 'keep';
  if (templateKeeps !== undefined) return templateKeeps;
  return RENDERS_REASONING.test(model);
}
