import type { Session } from '../../actors/session/session.js';
import type { Config } from '../../actors/config/load-config.js';
import { sessionDoctorReport } from '../doctor/session-doctor.js';

/**
 * What the editor is told of the engine when a session starts, and only when something is wrong:
 * `reika doctor`'s problems (the window unknown, one llama.cpp slot, no chat template, no sandbox…)
 * each with its fix, in a few lines. Nothing when all is well: an editor's thread is no place for
 * a status report.
 */
export async function engineNote(session: Session, config: Config): Promise<string | undefined> {
  const report = await sessionDoctorReport(session, config);
  if (report.problems.length === 0) return undefined;
  const lines = report.problems.map(({ problem, fix }) => `- ${problem} Fix: ${fix}`);
  const engine = [report.engine, report.model].filter(Boolean).join(', ');
  return `reika: ${engine ? `${engine}: ` : ''}${report.problems.length === 1 ? 'one thing' : `${report.problems.length} things`} to fix for the best results (\`reika doctor\` says more):\n${lines.join('\n')}\n\n`;
}
