import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reikaBin } from '../test/helpers/binary.js';
import { llamaCppModel, llamaCppProps, startScriptedServer, type ScriptedServer } from '../test/helpers/scripted-server.js';
import { gitRepo, tempDir } from '../test/helpers/temp.js';
import { row } from './stats.js';

// How many HTTP requests `reika -p` sends a server before its first chat request (SPEC §20), cold
// (nothing remembered) and warm (the same server the start before), against a llama.cpp-like
// server, an engine that names itself nowhere, and a hosted-looking URL (`api.hosted.example`,
// resolved to the scripted server inside reika by a preload). The reference is the target.

function beforeFirstChat(server: ScriptedServer, from: number): string[] {
  const asked: string[] = [];
  for (const request of server.requests.slice(from)) {
    if (request.path === '/v1/chat/completions') break;
    asked.push(request.path);
  }
  return asked;
}

async function count(label: string, options: Parameters<typeof startScriptedServer>[1], target: { cold?: number; warm: number }, hosted = false): Promise<void> {
  const server = await startScriptedServer(() => ({ content: 'ok' }), options);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: tempDir('reika-bench-home-'), XDG_STATE_HOME: tempDir('reika-bench-state-'), REIKA_MODEL: 'm' };
  for (const key of Object.keys(env)) if (key.startsWith('REIKA_') && key !== 'REIKA_MODEL') delete env[key];
  env.REIKA_BASE_URL = server.url;
  if (hosted) {
    const preload = join(tempDir('reika-bench-hosts-'), 'hosts.cjs');
    writeFileSync(preload, `const dns = require('node:dns'); const lookup = dns.lookup;\ndns.lookup = (h, o, c) => { if (typeof o === 'function') { c = o; o = {}; } if (h !== 'api.hosted.example') return lookup(h, o, c); return o && o.all ? c(null, [{ address: '127.0.0.1', family: 4 }]) : c(null, '127.0.0.1', 4); };\n`);
    env.NODE_OPTIONS = `--require ${preload}`;
    env.REIKA_BASE_URL = server.url.replace('127.0.0.1', 'api.hosted.example');
  }
  const repo = gitRepo({ 'a.txt': 'a\n' });
  try {
    for (const phase of ['cold', 'warm'] as const) {
      const from = server.requests.length;
      // Not spawnSync: the scripted server answers from this process's event loop.
      const child = spawn(process.execPath, [reikaBin, '-p', 'say ok'], { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise((resolve) => child.on('close', resolve));
      if (code !== 0) throw new Error(`reika -p failed: ${stderr}`);
      const asked = beforeFirstChat(server, from);
      const goal = target[phase];
      row(`requests before the first chat, ${label}, ${phase}`, String(asked.length), goal === undefined ? 'no target' : `${goal} target`, goal ? asked.length / goal : undefined, goal === undefined ? undefined : `≤ ${goal}`);
      process.stdout.write(`  (${asked.join(', ') || 'none'})\n`);
    }
  } finally {
    await server.close();
  }
}

export default async function (): Promise<void> {
  await count('llama.cpp', { models: [llamaCppModel('m', 32768)], props: llamaCppProps(16384) }, { warm: 2 });
  await count('an engine naming itself nowhere', { models: ['m'] }, { warm: 2 });
  await count('hosted URL', { models: ['m'] }, { cold: 1, warm: 1 }, true);
}
