import { SUBCOMMANDS } from '../subcommand.js';

// `reika completion bash|zsh|fish`: a completion script for the shell, printed on stdout, to be
// sourced from the shell's start-up file (docs in `--help`). Subcommands, flags and the values
// flags take; `--cwd` completes folders and `--model` files.

const FLAGS = ['-p', '--prompt', '--json', '--stream', '-m', '--model', '--profile', '--mode', '--approvals', '--cwd', '-c', '--continue', '--resume', '--help', '--version'];
const VALUES: Record<string, readonly string[]> = { '--mode': ['agent', 'plan'], '--approvals': ['safe', 'off'] };
const SHELLS = ['bash', 'zsh', 'fish'] as const;

export async function run(argv: string[]): Promise<number> {
  const shell = argv[0];
  if (argv.length !== 1 || !(SHELLS as readonly string[]).includes(shell!)) {
    process.stderr.write(`reika: completion takes one of ${SHELLS.join(', ')} (e.g. reika completion bash >> ~/.bashrc)\n`);
    return 2;
  }
  process.stdout.write(script(shell as (typeof SHELLS)[number]));
  return 0;
}

export function script(shell: (typeof SHELLS)[number]): string {
  const words = SUBCOMMANDS;
  if (shell === 'bash') {
    return `# reika completion for bash: source this file, or: reika completion bash >> ~/.bashrc
_reika() {
  local cur prev
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${Object.entries(VALUES).map(([flag, values]) => `    ${flag}) COMPREPLY=($(compgen -W "${values.join(' ')}" -- "$cur")); return ;;`).join('\n')}
    --cwd|-C) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --model|-m) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    completion) COMPREPLY=($(compgen -W "${SHELLS.join(' ')}" -- "$cur")); return ;;
    --profile|-p|--prompt|--resume) return ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${FLAGS.join(' ')}" -- "$cur")); return; fi
  COMPREPLY=($(compgen -W "${words.join(' ')}" -- "$cur"))
}
complete -o default -F _reika reika
`;
  }
  if (shell === 'zsh') {
    return `#compdef reika
# reika completion for zsh: put this file on $fpath as _reika, or: source <(reika completion zsh)
_reika() {
  _arguments -s \\
    '(-p --prompt)'{-p,--prompt}'[run one task headless]:prompt:' \\
    '--json[one JSON result object]' \\
    '--stream[JSON lines of events]' \\
    '(-m --model)'{-m,--model}'[the model, or a .gguf file]:model:_files' \\
    '--profile[start on this profile]:profile:' \\
    '--mode[agent or plan]:mode:(${VALUES['--mode']!.join(' ')})' \\
    '--approvals[safe or off]:approvals:(${VALUES['--approvals']!.join(' ')})' \\
    '(--cwd -C)'{--cwd,-C}'[work in another folder]:folder:_files -/' \\
    '(-c --continue)'{-c,--continue}'[resume the newest session here]' \\
    '--resume[resume a session]:session id:' \\
    '--help[usage]' '--version[version]' \\
    '1:command:(${words.join(' ')})' \\
    '*::argument:_files'
}
if [[ "$funcstack[1]" == "_reika" ]]; then _reika "$@"; else compdef _reika reika; fi
`;
  }
  const lines = [
    '# reika completion for fish: reika completion fish > ~/.config/fish/completions/reika.fish',
    'complete -c reika -f',
    ...words.map((word) => `complete -c reika -n __fish_use_subcommand -a ${word}`),
    'complete -c reika -n "__fish_seen_subcommand_from completion" -a "bash zsh fish"',
    'complete -c reika -s p -l prompt -r -d "run one task headless"',
    'complete -c reika -l json -d "one JSON result object"',
    'complete -c reika -l stream -d "JSON lines of events"',
    'complete -c reika -s m -l model -r -F -d "the model, or a .gguf file"',
    'complete -c reika -l profile -r -d "start on this profile"',
    `complete -c reika -l mode -x -a "${VALUES['--mode']!.join(' ')}"`,
    `complete -c reika -l approvals -x -a "${VALUES['--approvals']!.join(' ')}"`,
    'complete -c reika -s C -l cwd -x -a "(__fish_complete_directories)" -d "work in another folder"',
    'complete -c reika -s c -l continue -d "resume the newest session here"',
    'complete -c reika -l resume -d "resume a session"',
  ];
  return `${lines.join('\n')}\n`;
}
