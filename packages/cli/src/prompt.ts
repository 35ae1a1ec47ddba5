/** Reading secrets: from stdin for scripts (--password-stdin), or a prompt that does not echo. */
import readline from 'node:readline';
import { interactive } from './config.js';
import { usageError } from './output.js';

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One trailing newline is the shell's, not the password's (`echo pw | tianji login --password-stdin`).
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks on the terminal; with `hidden`, typed characters are not shown. */
export function ask(question: string, hidden = false): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const out = rl as unknown as { _writeToOutput(s: string): void; output: NodeJS.WritableStream };
  if (hidden) {
    out._writeToOutput = (s: string) => {
      // Keep the prompt and the final newline; swallow the echo of what is typed.
      if (s.startsWith(question) || s === '\r\n' || s === '\n') out.output.write(s.startsWith(question) ? question : s);
    };
  }
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer);
    });
  });
}

/** The password from stdin (--password-stdin) or a hidden prompt; a usage error when neither is possible. */
export async function password(fromStdin: boolean | undefined, label = '密码 (password): '): Promise<string> {
  const pw = fromStdin ? await readStdin() : interactive() ? await ask(label, true) : null;
  if (pw === null)
    throw usageError('需要密码：在终端里运行，或用 --password-stdin 从标准输入读入（password required）');
  if (!pw) throw usageError('密码不能为空（password must not be empty）');
  return pw;
}
