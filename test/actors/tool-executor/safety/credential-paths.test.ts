import test from 'ava';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ask } from '../../../../actors/tool-executor/approvals.js';
import { commandDangers } from '../../../../actors/tool-executor/shell/danger.js';
import { credentialMatcher } from '../../../../actors/tool-executor/safety/credential-paths.js';
import { credentialMasks } from '../../../../actors/tool-executor/safety/sandbox-policy.js';
import { sandboxState } from '../../../../actors/tool-executor/safety/sandbox.js';
import { stateFolder } from '../../../../actors/state-dir.js';
import { gitRepo, tempDir, writeTree } from '../../../helpers/temp.js';
import { call } from '../harness.js';

// A home with the credential files people keep (fake values), for every tool of this file.
const home = tempDir('reika-cred-home-');
process.env.HOME = home;
delete process.env.XDG_CONFIG_HOME;
const files: Record<string, string> = {
  '.ssh/id_ed25519': '-----BEGIN OPENSSH PRIVATE KEY-----\nfake-ssh-key-material-1\n',
  '.aws/credentials': '[default]\naws_secret_access_key = fake-aws-secret-2\n',
  '.gnupg/private-keys-v1.d/key.key': 'fake-gpg-key-3\n',
  '.config/gh/hosts.yml': 'github.com:\n  oauth_token: fake-gh-oauth-4\n',
  '.netrc': 'machine example.com login me password fake-netrc-5\n',
  '.git-credentials': 'https://me:fake-git-cred-6@github.com\n',
  '.docker/config.json': '{"auths":{"r":{"auth":"fake-docker-7"}}}\n',
  '.kube/config': 'users:\n- user:\n    token: fake-kube-8\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=fake-npm-9\n',
  '.pypirc': '[pypi]\npassword = fake-pypi-10\n',
  '.config/gcloud/credentials.db': 'fake-gcloud-11\n',
  '.azure/accessTokens.json': '[{"accessToken":"fake-azure-12"}]\n',
  '.config/reika/.env': 'REIKA_API_KEY=fake-reika-key-13\n',
};
writeTree(home, files);
mkdirSync(stateFolder(), { recursive: true });
writeFileSync(join(stateFolder(), 'trust.json'), '{"fake-state-14":true}\n');
writeFileSync(join(home, 'notes.txt'), 'an ordinary file outside the project: fake-findable\n');
const fakeValues = [...Object.values(files), 'fake-state-14'].map((text) => /fake-[a-z-]+-?\d+/.exec(text)![0]);

/** Like headless reika: every request is declined. */
const headless: Ask = async () => ({ decision: 'decline', note: 'declined: reika runs headless' });

const box = await sandboxState(undefined);
const sandboxed = box.kind === 'bwrap' ? test : test.skip;

test('read, grep, glob and list ask before they touch any credential path, and headless declines them', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  const targets = [...Object.keys(files).map((rel) => join(home, rel)), join(stateFolder(), 'trust.json'), `/proc/${process.pid}/environ`, '/proc/self/environ'];
  for (const path of targets) {
    const folder = path.slice(0, path.lastIndexOf('/'));
    const tried: [string, Record<string, unknown>][] = [
      ['read', { path }],
      ['grep', { pattern: 'fake', path }],
      ['grep', { pattern: 'fake', path: folder }],
      ['glob', { pattern: '*', path: folder }],
      ['list', { path: folder }],
    ];
    for (const [tool, args] of tried) {
      // A file right in the home folder (or ~/.docker) is no folder of credentials: walks there leave it out instead.
      const plainFolder = folder === home || folder === join(home, '.docker') || folder.startsWith('/proc/');
      if (plainFolder && args.path === folder) continue;
      const result = await call(root, tool, args, { ask: headless });
      t.is(result.status, 'declined', `${tool} ${JSON.stringify(args)}`);
      t.is(result.asked.length, 1, `${tool} ${JSON.stringify(args)} asked once`);
      t.regex(result.asked[0]!.reason, /a credential path/);
      t.false(fakeValues.some((value) => result.payload.includes(value) || result.summary.includes(value)), `${tool} ${JSON.stringify(args)} leaked`);
    }
  }
  // In the terminal the person may say yes.
  const approved = await call(root, 'read', { path: '~/.netrc' });
  t.is(approved.status, 'done');
  t.is(approved.asked.length, 1);
  t.true(approved.payload.includes('fake-netrc-5'));
});

test('edit and write ask for a credential path, and edit does not read the file before the answer', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  const edit = await call(root, 'edit', { path: '~/.ssh/id_ed25519', old_string: 'no such text', new_string: 'y' }, { ask: headless });
  t.is(edit.status, 'declined');
  t.regex(edit.asked[0]!.reason, /changes ~\/\.ssh\/id_ed25519, a credential path \(~\/\.ssh\)/);
  t.is(edit.asked[0]!.diff, undefined);
  const write = await call(root, 'write', { path: '~/.ssh/authorized_keys', content: 'ssh-ed25519 AAAA attacker\n' }, { ask: headless });
  t.is(write.status, 'declined');
  t.regex(write.asked[0]!.reason, /writes ~\/\.ssh\/authorized_keys, a credential path/);
});

test('reads elsewhere outside the project do not ask, and walks from above leave credential paths out', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  const notes = await call(root, 'read', { path: '~/notes.txt' }, { ask: headless });
  t.is(notes.status, 'done');
  t.deepEqual(notes.asked, []);
  const grep = await call(root, 'grep', { pattern: 'fake-', path: home }, { ask: headless });
  t.deepEqual(grep.asked, []);
  t.true(grep.payload.includes('fake-findable'));
  t.false(fakeValues.some((value) => grep.payload.includes(value)), grep.payload);
  t.regex(grep.summary, /credential paths left out/);
  const glob = await call(root, 'glob', { pattern: '**/*', path: home }, { ask: headless });
  t.false(/\.ssh|\.aws|\.netrc|gh\/hosts|\.kube/.test(glob.payload), glob.payload);
  const list = await call(root, 'list', { path: home, depth: 3 }, { ask: headless });
  t.false(/id_ed25519|credentials|hosts\.yml|\.netrc/.test(list.payload), list.payload);
  t.true(list.payload.includes('notes.txt'));
});

test('the bash spellings of a credential read ask first, and headless they do not run', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  const spellings = [
    'cat ~/.netrc',
    'base64 ~/.ssh/id_ed25519',
    'cp ~/.kube/config ./x',
    'cat ~/.netrc ~/.git-credentials',
    'grep oauth_token ~/.config/gh/hosts.yml',
    'cat $HOME/.aws/credentials',
    'cd ~/.ssh && cat id_ed25519',
    'cat < ~/.npmrc',
    'tar czf creds.tgz ~/.aws',
    'tar czf home.tgz ~',
    'cat ~/.ss*/id_*',
    'xxd ~/.pypirc | head',
    'python3 -c "print(open(\'' + home + '/.docker/config.json\').read())"',
    `node -e 'console.log(require("fs").readFileSync(require("os").homedir() + "/.azure/accessTokens.json", "utf8"))' ~/.azure`,
    'cat /proc/$PPID/environ',
    'strings /proc/1/environ',
    'sh -c "cat ~/.config/gcloud/credentials.db"',
    'curl --netrc-file=' + home + '/.netrc https://example.com',
    `cat ${stateFolder()}/trust.json`,
    'cat ~/.config/reika/.env',
  ];
  for (const command of spellings) {
    t.true(commandDangers(command, root, home).some((reason) => /a credential path/.test(reason)), command);
    const result = await call(root, 'bash', { command }, { ask: headless });
    t.is(result.status, 'declined', command);
    t.false(fakeValues.some((value) => result.payload.includes(value)), command);
  }
  for (const command of ['ls', 'cat a.txt', 'git status', 'echo ~/notes.txt', 'ls ~', 'find . -name "*.ts"', 'cat ~/*.txt']) {
    t.deepEqual(commandDangers(command, root, home).filter((reason) => /credential/.test(reason)), [], command);
  }
});

sandboxed('inside the sandbox every credential path is empty unless the command was approved', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  // Spelled so the parser cannot see the path: only the sandbox stands in the way.
  const sneaky = `d=ssh; n=rc; for f in ~/.$d/* ~/.net$n ~/.aw"s"/credentials ~/.config/g"h"/hosts.yml ~/.kub"e"/config ~/.git-credential"s" ~/.config/reik"a"/.env ${stateFolder().replace(/reika$/, 'reik"a"')}/trust.json; do cat "$f" 2>/dev/null; done; echo end`;
  t.deepEqual(commandDangers(sneaky, root, home).filter((reason) => /credential/.test(reason)), []);
  const masked = await call(root, 'bash', { command: sneaky }, { ask: headless });
  t.is(masked.status, 'done');
  t.is(masked.payload, 'end\n');
  // Approved (approvals off asks for every command; the person says yes): the files are there.
  const approved = await call(root, 'bash', { command: sneaky }, { approvals: 'off' });
  t.is(approved.asked.length, 1);
  for (const value of ['fake-ssh-key-material-1', 'fake-netrc-5', 'fake-aws-secret-2', 'fake-gh-oauth-4', 'fake-kube-8', 'fake-git-cred-6', 'fake-reika-key-13', 'fake-state-14']) {
    t.true(approved.payload.includes(value), value);
  }
  // The folders still exist (empty), so programs that create them do not fail oddly; nothing written there lands.
  const write = await call(root, 'bash', { command: 'd=~/.ssh; ls -A "$d" | wc -l; echo x > "$d/planted"; ls "$d"' }, { ask: headless });
  t.deepEqual(write.asked, []);
  t.is(write.payload.split('\n')[0], '0');
  t.throws(() => readFileSync(join(home, '.ssh/planted')));
});

test('a credential folder that links into another folder counts there too, by its real path', (t) => {
  const place = tempDir('reika-cred-linked-');
  writeTree(place, { 'dotfiles/ssh/id_ed25519': 'fake-linked-key\n', 'dotfiles/notes.txt': 'plain\n' });
  mkdirSync(join(place, 'home'));
  symlinkSync(join(place, 'dotfiles/ssh'), join(place, 'home/.ssh'));
  const match = credentialMatcher({ home: join(place, 'home'), env: {} });
  t.is(match(join(place, 'dotfiles/ssh/id_ed25519'))?.label, '~/.ssh');
  t.is(match(join(place, 'home/.ssh/id_ed25519'))?.label, '~/.ssh');
  t.is(match(join(place, 'dotfiles/notes.txt')), undefined);
});

test('the masks are the existing credential paths, none over the project itself', (t) => {
  const masks = credentialMasks({ command: 'true', root: tempDir(), network: false, home });
  t.true(masks.some((mask) => mask.path === join(home, '.ssh') && mask.folder));
  t.true(masks.some((mask) => mask.path === join(home, '.netrc') && !mask.folder));
  t.false(masks.some((mask) => mask.path === join(home, '.pgpass')));
  const inside = join(home, '.config', 'reika');
  t.false(credentialMasks({ command: 'true', root: inside, network: false, home }).some((mask) => mask.path === inside));
  t.deepEqual(credentialMasks({ command: 'true', root: tempDir(), network: true, showCredentials: true, home }), []);
});
