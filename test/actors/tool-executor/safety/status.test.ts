import test from 'ava';
import { CheckpointStore } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { sandboxNotice } from '../../../../actors/tool-executor/safety/sandbox.js';
import { describeSafety, safetyStatus } from '../../../../actors/tool-executor/safety/status.js';
import { gitRepo } from '../../../helpers/temp.js';
import { toolSettings } from '../../../helpers/tool-settings.js';

test('the safety status names the sandbox and this project’s checkpoints, for reika doctor', async (t) => {
  const root = gitRepo({ 'a.txt': 'a\n' });
  await CheckpointStore.for(root).snapshot('doctor-session', 'bash', 'ls');
  const status = await safetyStatus(root, toolSettings(root));
  t.is(status.sandbox.kind, 'bwrap', status.sandbox.note);
  t.like(status.checkpoints, { enabled: true, sessions: 1, lastSession: 'doctor-session', lastSessionSteps: 1, store: CheckpointStore.for(root).dir });
  t.true(status.checkpoints.folder.startsWith(process.env.XDG_STATE_HOME!));
  const [sandbox, checkpoints] = describeSafety(status);
  t.regex(sandbox!, /^sandbox: bwrap \(\/\S*bwrap, own PID namespace; REIKA_SANDBOX=auto\)$/);
  t.regex(checkpoints!, /^checkpoints: on, in \S+ \(1 session; last doctor-session, 1 step to undo; files over 16 MB are not held\)$/);
  t.is(await sandboxNotice(toolSettings(root)), undefined, 'a working sandbox is not announced');
});

test.serial('REIKA_CHECKPOINTS=off and REIKA_SANDBOX=off are reported as such', async (t) => {
  const root = gitRepo({ 'a.txt': 'a\n' });
  process.env.REIKA_CHECKPOINTS = 'off';
  process.env.REIKA_SANDBOX = 'off';
  t.teardown(() => {
    delete process.env.REIKA_CHECKPOINTS;
    delete process.env.REIKA_SANDBOX;
  });
  const status = await safetyStatus(root, toolSettings(root));
  t.deepEqual(describeSafety(status), ['sandbox: none — REIKA_SANDBOX=off: commands run unconfined', 'checkpoints: off — REIKA_CHECKPOINTS=off: edits and commands are not checkpointed']);
  t.is(await sandboxNotice(toolSettings(root)), undefined, 'off on purpose is not announced');
});
