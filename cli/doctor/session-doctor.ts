import type { Session } from '../../actors/session/session.js';
import type { Config } from '../../actors/config/load-config.js';
import type { McpHub } from '../../actors/mcp/hub.js';
import { describeDoctor, doctorReport, type DoctorInput, type DoctorReport } from './doctor-report.js';
import { oneSentence, settingsPrefix } from './gather.js';
import { ReikaError } from '../../runtime/errors.js';

/**
 * `/doctor` inside a session: the same report as `reika doctor`, from what the session already
 * knows (the engine record detected at its start, the template probe and the breaks its requests
 * showed, the real cache figures of its requests) plus safety and the running MCP servers. Asks
 * the server nothing new, unless the session could not connect: then it connects again, as a turn
 * would, and says why that failed.
 */
export async function sessionDoctorReport(session: Session, config: Config, mcp?: () => Promise<McpHub>): Promise<DoctorReport> {
  // Asked first: a connection that failed is tried again, and detection starts over with it.
  const failed = await session.connectionProblem();
  const info = session.info();
  const facts = session.doctorFacts();
  const engine = facts.engine ?? (await session.engineDetected());
  const profile = config.profiles.find((p) => p.name === info.profile) ?? config.active;
  const [safety, hub] = await Promise.all([
    import('../../actors/tool-executor/safety/status.js').then(({ safetyStatus }) => safetyStatus(info.root, session.tools)).catch(() => undefined),
    mcp ? mcp().catch(() => undefined) : Promise.resolve(undefined),
  ]);
  const findings = [...(facts.templateFindings ?? [])];
  const seen = new Set(findings.map((finding) => finding.kind));
  for (const { request, break: found } of facts.templateBreaks) {
    if (seen.has(found.cause)) continue;
    seen.add(found.cause);
    findings.push({ kind: found.cause, message: `${found.description} (seen at request ${request} of this session: ≈${found.lostTokens} tokens re-prefilled)`, fix: 'start llama-server with --chat-template-file FILE holding a template that renders the history the same way at every request' });
  }
  const input: DoctorInput = {
    profile: profile.name,
    prefix: settingsPrefix(profile),
    baseUrl: profile.engine === 'embedded' ? `embedded: ${profile.model}` : profile.baseUrl,
    ...(profile.model ? { configuredModel: profile.model } : {}),
    ...(profile.contextWindow ? { configuredWindow: profile.contextWindow } : {}),
    models: [],
    ...(info.model ? { model: info.model } : {}),
    ...(engine ? { engine } : {}),
    ...(info.window ? { discoveredWindow: info.window } : {}),
    session: {
      // The counts /tokens shows (the session's usage ledger); the cache ledger adds what the engine prefilled.
      requests: info.requests,
      promptTokens: info.usage.promptTokens,
      cachedTokens: info.usage.cachedTokens,
      measured: info.cache.requests,
      prefilledTokens: info.cache.prefilledTokens,
      unreported: info.cache.unreported,
      breaks: info.cache.reprefills.map((entry) => ({ request: entry.request, prefilled: entry.prefilledTokens, appended: entry.appendedTokens ?? 0, ...(entry.reprefill ? { cause: entry.reprefill.detail } : {}) })),
      ...(info.dialect ? { dialect: info.dialect } : {}),
      compaction: { ...info.cache.compaction, ...(info.cacheReuseAdvice ? { cacheReuseAdvice: info.cacheReuseAdvice } : {}) },
    },
    ...(engine?.kind === 'server' && engine.chatTemplate ? { template: { findings } } : {}),
    ...(safety ? { safety } : {}),
    ...(hub ? { mcp: { servers: hub.status(), problems: hub.configProblems() } } : {}),
  };
  if (failed !== undefined) {
    const code = ReikaError.isInstance(failed) ? failed.code : undefined;
    input.connectError = oneSentence(failed);
    input.connectKind = code === 'REIKA_ERR_AUTH' ? 'auth' : code?.startsWith('REIKA_ERR_MODEL_') ? 'model' : 'unreachable';
  } else if (!info.window && engine?.kind === 'server' && engine.unreachable) input.connectError = `No model server answers at ${profile.baseUrl}.`;
  const report = doctorReport(input);
  return report;
}

export async function sessionDoctor(session: Session, config: Config, mcp?: () => Promise<McpHub>): Promise<string[]> {
  const report = await sessionDoctorReport(session, config, mcp);
  const lines = describeDoctor(report);
  const facts = session.doctorFacts();
  const servers = await session.languageServers().catch((error: unknown) => [`could not be listed: ${error instanceof Error ? error.message : String(error)}`]);
  lines.push(...servers.map((line, i) => `${i === 0 ? 'lsp:' : ''}`.padEnd(12) + line));
  // After the cache line; a report of a server not reached has none, and no history to speak of.
  const cache = lines.findIndex((line) => line.startsWith('cache:'));
  if (cache >= 0) lines.splice(cache + 1, 0, `history:    reasoning ${facts.reasoningHistory ? 'sent back' : 'not sent back'} (REIKA_REASONING_HISTORY=${config.engine.reasoningHistory}); system prompt ${facts.placement === 'first-user' ? 'in the first user message' : 'as the system message'}`);
  return lines;
}
