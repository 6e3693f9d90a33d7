/**
 * npm runs package.json's scripts through `sh -c` on Linux and macOS and through `cmd.exe /d /s /c` on
 * Windows (from PowerShell too: npm's script shell is ComSpec, not the shell npm was typed in). A script
 * must mean the same in both: node, npm, npx or a dependency's bin (npm puts node_modules/.bin on PATH, with
 * .cmd shims on Windows), plain words, commands joined by `&&` (both shells run the next only when the one
 * before succeeded). What only a POSIX shell reads is refused: `VAR=value cmd`, `$VAR`, quotes (cmd takes
 * '...' literally), globs (cmd does not expand them), `;`, pipes, redirections, subshells, `~`, backslashes;
 * and cmd's own `%VAR%` and `^`. No `.npmrc` may set a script shell: plain Windows has no bash.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

const SHELL_ONLY: [RegExp, string][] = [
  [/^[A-Za-z_][A-Za-z0-9_]*=/, 'an environment assignment (VAR=value cmd): sh only'],
  [/\$/, '$: a variable or substitution in sh, a plain character in cmd'],
  [/%/, '%VAR%: a variable in cmd, a plain character in sh'],
  [/['"`]/, 'quotes: sh and cmd read them differently (cmd takes single quotes literally)'],
  [/[*?[\]]/, 'a glob: sh expands it, cmd passes it on as written'],
  [/;/, '; : a command separator in sh only'],
  [/\|/, 'a pipe or ||: behaves differently in cmd'],
  [/[<>]/, 'a redirection: /dev/null and 2>&1 differ in cmd'],
  [/[(){}]/, 'a subshell or group'],
  [/~/, '~: home in sh only'],
  [/\\/, 'a backslash: an escape in sh, a path separator in cmd'],
  [/\^/, "^: cmd's escape"],
  [/!/, "!: sh's negation and history, cmd's delayed expansion"],
  [/#/, '#: a comment in sh only'],
  [/(^|[^&])&($|[^&])/, 'a lone &: runs in the background in sh, sequentially in cmd'],
];

/** What a script would do differently under cmd.exe than under sh, one line per problem (empty: none). */
function shellOnly(name: string, script: string, bins: (word: string) => boolean): string[] {
  const problems: string[] = [];
  for (const [i, part] of script.split('&&').entries()) {
    const command = part.trim();
    if (!command) {
      problems.push(`${name}: an empty command around && (part ${i + 1})`);
      continue;
    }
    for (const [pattern, why] of SHELL_ONLY)
      if (pattern.test(command)) problems.push(`${name}: "${command}" has ${why}`);
    const first = command.split(/\s+/)[0]!;
    if (!['node', 'npm', 'npx'].includes(first) && !bins(first))
      problems.push(
        `${name}: "${first}" is neither node, npm, npx nor a bin of a dependency (a shell's own command?)`,
      );
  }
  return problems;
}

const isBin = (word: string) =>
  /^[a-z0-9][a-z0-9._-]*$/.test(word) && existsSync(join(ROOT, 'node_modules', '.bin', word));

describe('npm scripts run the same under sh, cmd.exe and PowerShell', () => {
  it('every script in package.json: node, npm, npx or a dependency bin, plain words, joined by && at most', () => {
    const problems = Object.entries(pkg.scripts).flatMap(([name, script]) => shellOnly(name, script, isBin));
    expect(problems).toEqual([]);
  });

  it('refuses what only one shell reads (the check is not vacuous)', () => {
    const refused = {
      env: 'NODE_ENV=production webpack',
      variable: 'node bin/grc-sheets.js start --port $PORT',
      cmdVariable: 'node bin/grc-sheets.js start --port %PORT%',
      quotes: "prettier --write 'src/**/*.ts'",
      glob: 'eslint src/*.ts',
      semicolon: 'npm run build; node bin/grc-sheets.js start',
      pipe: 'node x.js | tee log',
      redirect: 'node x.js 2>/dev/null',
      background: 'node a.js & node b.js',
      posixCommand: 'rm -rf dist && webpack',
      subshell: '(cd test && jest)',
    };
    for (const [name, script] of Object.entries(refused)) {
      const problems = shellOnly(name, script, isBin);
      expect(problems.length).toBeGreaterThan(0);
      for (const p of problems) expect(p.startsWith(`${name}: `)).toBe(true);
    }
    expect(shellOnly('rm', 'rm -rf dist && webpack', isBin)).toEqual([
      'rm: "rm" is neither node, npm, npx nor a bin of a dependency (a shell\'s own command?)',
    ]);
    expect(shellOnly('fine', 'npm run build && node bin/grc-sheets.js start --port 3001', isBin)).toEqual([]);
  });

  it('no .npmrc sets a script shell (npm then uses sh on POSIX, cmd.exe on Windows)', () => {
    const npmrc = join(ROOT, '.npmrc');
    const text = existsSync(npmrc) ? readFileSync(npmrc, 'utf8') : '';
    expect(text).not.toMatch(/^\s*script-shell\s*=/m);
  });
});

describe('the office-addin-* tools the scripts run (validate, dev certificates) send no usage data', () => {
  it('every copy of office-addin-usage-data in the lockfile is 3.x or later, whose reporting is off whatever it is told', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    const copies = Object.entries(lock.packages).filter(([at]) =>
      at.endsWith('node_modules/office-addin-usage-data'),
    );
    expect(copies.length).toBeGreaterThan(0);
    for (const [, { version }] of copies) expect(Number(version.split('.')[0])).toBeGreaterThanOrEqual(3);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const usage = require('office-addin-usage-data') as typeof import('office-addin-usage-data');
    const optedIn = new usage.OfficeAddinUsageData({
      projectName: 'grc-sheets-test',
      instrumentationKey: usage.instrumentationKeyForOfficeAddinCLITools,
      usageDataLevel: usage.UsageDataLevel.on,
      promptQuestion: '',
      raisePrompt: false,
    });
    expect(optedIn.isUsageDataOn()).toBe(false);
    expect(usage.needToPromptForUsageData(usage.groupName)).toBe(false);
  });
});
